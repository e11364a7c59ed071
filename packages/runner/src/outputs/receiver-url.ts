import { errors } from '@bench/core';

/** A remote-write receiver's URL (http or https), or the usage error that says what to give. */
export function parseReceiverUrl(option: string, raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw errors.usage(`${option} "${raw}" is not an http(s) URL: give the receiver's, e.g. http://127.0.0.1:9090/api/v1/write`);
  return url.href;
}
