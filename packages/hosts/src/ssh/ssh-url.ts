import { errors } from '@bench/core';

/** A host named by an SSH URL: ssh://[user@]host[:port]. */
export interface SshHost {
  /** The URL as given. */
  readonly url: string;
  readonly user?: string;
  /** A host name, an address, or an alias of the user's ssh config. */
  readonly host: string;
  readonly port?: number;
  /** How messages and results name it: host[:port], never the user. */
  readonly label: string;
}

/** Reads --server-host / --database-host: ssh://[user@]host[:port], refused in one line otherwise. */
export function parseSshUrl(flag: string, text: string): SshHost {
  const refuse = (why: string) =>
    errors.usage(
      `${flag} "${text}" ${why}: give ssh://[user@]host[:port], e.g. ssh://10.0.0.2:2222 or ssh://lab-server (an alias of your ssh config)`,
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('is not a URL');
  }
  if (url.protocol !== 'ssh:') throw refuse(`is a ${url.protocol.replace(/:$/, '')} URL, not ssh`);
  if (url.password !== '') throw refuse('holds a password, which bench never sends (SSH logs in with a key)');
  if (url.hostname === '') throw refuse('names no host');
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') throw refuse('has a path');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port !== '' ? Number(url.port) : undefined;
  const user = url.username !== '' ? decodeURIComponent(url.username) : undefined;
  return {
    url: text,
    host,
    ...(user !== undefined ? { user } : {}),
    ...(port !== undefined ? { port } : {}),
    label: port !== undefined ? `${url.hostname}:${port}` : url.hostname,
  };
}
