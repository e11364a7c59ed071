import { createRequire } from 'node:module';
import type Http from 'node:http';

// node:http through require: an ESM import of it reads every export, WebSocket's among them, and that loads Node's
// undici (10-40 ms of CPU at every bench start, whether or not the command makes a request)
const require = createRequire(import.meta.url);

/** Node's node:http module. */
export const nodeHttp = (): typeof Http => require('node:http') as typeof Http;
