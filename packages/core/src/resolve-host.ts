import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { errors } from './errors.js';

/** Where a URL's host is: a numeric address and its family (4 or 6). */
export interface ResolvedHost {
  readonly address: string;
  readonly family: 4 | 6;
}

/** A URL's host name without the brackets an IPv6 address wears in a URL ([::1] -> ::1). */
export const bareHostname = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The address a URL's host resolves to, looked up once (the system's resolver, as curl and Node's clients use it; its
 * first answer, in the order the system gives); a numeric host is its own. A name that does not resolve is bad input.
 */
export async function resolveHost(url: string): Promise<ResolvedHost> {
  const parsed = new URL(url);
  const host = bareHostname(parsed);
  const family = isIP(host);
  if (family === 4 || family === 6) return { address: host, family };
  try {
    const found = await lookup(host, { verbatim: true });
    return { address: found.address, family: found.family === 6 ? 6 : 4 };
  } catch (error) {
    throw errors.unknownHost(url, host, (error as NodeJS.ErrnoException).code ?? String(error));
  }
}
