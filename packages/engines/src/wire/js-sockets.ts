import { openNetSocket } from './net-socket.js';
import { openRawSocket, rawSocketsMissing } from './raw-socket.js';
import type { OpenSocket } from './wire-socket.js';

const raw = { open: openRawSocket, variant: 'js core' };
const publicSockets = { open: openNetSocket, variant: 'js core on net sockets' };

/**
 * The js core's sockets for a run, and the engine variant that names them: libuv's handles, unless `--core net` asks
 * for Node's public sockets or this Node refuses its internals (process.binding under `node --permission`).
 */
export function jsSockets(core: unknown): { readonly open: OpenSocket; readonly variant: string } {
  return core !== 'net' && rawSocketsMissing() === undefined ? raw : publicSockets;
}
