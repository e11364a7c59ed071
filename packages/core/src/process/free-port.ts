import net from 'node:net';
import { errors } from '../errors.js';

export const LOOPBACK = '127.0.0.1';

/** A port on 127.0.0.1 that nothing listens on right now (the kernel picks it). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Throws the port-in-use error when something already listens on host:port. */
export function assertPortFree(port: number, host: string = LOOPBACK): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? errors.portInUse(port) : error),
    );
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

/** The port asked for (checked free on host), or a free one. */
export async function choosePort(requested?: number, host: string = LOOPBACK): Promise<number> {
  if (requested === undefined) return findFreePort();
  await assertPortFree(requested, host);
  return requested;
}

/** The address a target listens on: the one asked for, or 127.0.0.1. */
export const listenHost = (options: { readonly host?: string }): string => options.host ?? LOOPBACK;
