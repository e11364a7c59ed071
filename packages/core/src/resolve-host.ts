import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { errors } from './errors.js';

/** Where a URL's host is: a numeric address and its family (4 or 6). */
export interface ResolvedHost {
  readonly address: string;
  readonly family: 4 | 6;
}

/** A URL's host name without the brackets an IPv6 address wears in a URL ([::1] -> ::1). */
export const bareHostname = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

const PROBE_MS = 1000;

/** Whether a TCP connection to address:port opens within a second (closed at once). */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port, timeout: PROBE_MS });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * The address a URL's host resolves to, looked up once (the system's resolver, as curl and Node's clients use it); a
 * numeric host is its own. A name with several addresses (localhost: ::1 and 127.0.0.1) gives the first, in the
 * system's order, that accepts a connection, as a client trying each would (else the first). A name that does not
 * resolve is bad input.
 */
export async function resolveHost(url: string): Promise<ResolvedHost> {
  const parsed = new URL(url);
  const host = bareHostname(parsed);
  const family = net.isIP(host);
  if (family === 4 || family === 6) return { address: host, family };
  let found: Array<{ address: string; family: number }>;
  try {
    found = await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw errors.unknownHost(url, host, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  let chosen = found[0]!;
  for (const candidate of found.length > 1 ? found : []) {
    if (await accepts(candidate.address, port)) {
      chosen = candidate;
      break;
    }
  }
  return { address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
