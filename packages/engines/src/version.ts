import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** This package's version: the in-process engines report it as their own. */
export const ENGINES_VERSION: string = (require('../package.json') as { version: string }).version;
