import { errors } from '@bench/core';

/**
 * A receiver's URL (http or https), or the usage error that says what to give; an OTLP receiver's bare address gets
 * OTLP/HTTP's path for metrics (`http://127.0.0.1:4318` sends to `/v1/metrics`).
 */
export function parseReceiverUrl(option: string, raw: string, kind: 'prometheus' | 'otlp' = 'prometheus'): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw errors.usage(
      `${option} "${raw}" is not an http(s) URL: give the receiver's, e.g. ${kind === 'otlp' ? 'http://127.0.0.1:4318/v1/metrics' : 'http://127.0.0.1:9090/api/v1/write'}`,
    );
  if (kind === 'otlp' && url.pathname === '/') url.pathname = '/v1/metrics';
  return url.href;
}
