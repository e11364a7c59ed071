import { createRequire } from 'node:module';
import { packageFile } from '@bench/core';

const require = createRequire(import.meta.url);
/** This package's version: the in-process engines report it as their own. */
export const ENGINES_VERSION: string = (require(packageFile(import.meta.url, 'package.json')) as { version: string }).version;
