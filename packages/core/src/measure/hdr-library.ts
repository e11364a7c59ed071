import { createRequire } from 'node:module';
import type * as Hdr from 'hdr-histogram-js';

let loaded: typeof Hdr | undefined;

/** hdr-histogram-js, loaded with the first histogram rather than with every bench command that never records one. */
export const hdrLibrary = (): typeof Hdr => (loaded ??= createRequire(import.meta.url)('hdr-histogram-js') as typeof Hdr);
