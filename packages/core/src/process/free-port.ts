import { readFileSync } from 'node:fs';
import net from 'node:net';
import { errors } from '../errors.js';

export const LOOPBACK = '127.0.0.1';

// Outgoing connections take their local ports from the kernel's ephemeral range: a port found free there can be taken
// by a load generator's connection (thousands at -c 3000) before the server it was found for binds it (a CI run saw
// MariaDB refused its port so). A server's port is chosen below that range, where nothing is assigned unasked.
const EPHEMERAL_RANGE = '/proc/sys/net/ipv4/ip_local_port_range';
const LOWEST_SERVER_PORT = 10_000;
const ATTEMPTS = 50;

/** The lowest port of the kernel's ephemeral range, when this system says it. */
function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync(EPHEMERAL_RANGE, 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : undefined;
  } catch {
    return undefined;
  }
}

/** Listens on host:port and closes at once: resolves whether that worked (false when in use or not allowed). */
function canListen(port: number, host: string = LOOPBACK): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error),
    );
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port the kernel picks on host (from its ephemeral range). */
function kernelPickedPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A port on host (127.0.0.1 by default) that nothing listens on right now, below the ephemeral range where the system has one. */
export async function findFreePort(host: string = LOOPBACK): Promise<number> {
  const low = ephemeralLow();
  if (low !== undefined && low - LOWEST_SERVER_PORT >= 1000)
    for (let i = 0; i < ATTEMPTS; i++) {
      const port = LOWEST_SERVER_PORT + Math.floor(Math.random() * (low - LOWEST_SERVER_PORT));
      if (await canListen(port, host)) return port;
    }
  return kernelPickedPort(host);
}

/** Throws the port-in-use error when something already listens on host:port. */
export async function assertPortFree(port: number, host: string = LOOPBACK): Promise<void> {
  if (!(await canListen(port, host))) throw errors.portInUse(port);
}

/** The port asked for (checked free on host), or a free one. */
export async function choosePort(requested?: number, host: string = LOOPBACK): Promise<number> {
  if (requested === undefined) return findFreePort(host);
  await assertPortFree(requested, host);
  return requested;
}

/** The address a target listens on: the one asked for, or 127.0.0.1. */
export const listenHost = (options: { readonly host?: string }): string => options.host ?? LOOPBACK;
