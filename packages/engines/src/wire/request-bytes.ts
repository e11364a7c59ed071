import type { ScenarioRequest } from '@bench/core';

/**
 * The request as it goes on the wire, encoded once for the whole run: every connection writes these same bytes. A
 * run without keep-alive asks the server to close after each answer, as ab without -k does.
 */
export function encodeRequest(url: URL, request: ScenarioRequest, keepAlive: boolean): Buffer {
  const given = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
  const headers: string[] = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`];
  if (!given.has('host')) headers.push(`Host: ${url.host}`);
  for (const [name, value] of Object.entries(request.headers)) {
    // framing and the connection are the engine's to set
    if (!['content-length', 'connection', 'transfer-encoding'].includes(name.toLowerCase())) headers.push(`${name}: ${value}`);
  }
  if (!given.has('user-agent')) headers.push('User-Agent: bench');
  if (!keepAlive) headers.push('Connection: close');
  if (request.body) headers.push(`Content-Length: ${request.body.length}`);
  const head = Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'latin1');
  return request.body ? Buffer.concat([head, request.body]) : head;
}
