import { createRequire } from 'node:module';
import { packageFile } from '@bench/core';

const require = createRequire(import.meta.url);
export const TOOL_VERSION: string = (require(packageFile(import.meta.url, 'package.json')) as { version: string }).version;
