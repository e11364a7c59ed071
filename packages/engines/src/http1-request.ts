/** A request to put on the wire as HTTP/1.1: its request target (path and query), the Host, headers and body. */
export interface Http1Request {
  readonly method: string;
  readonly target: string;
  readonly host: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer | string | undefined;
}

// framing and the connection are the engine's to set, whatever the spec's headers say
const ENGINE_HEADERS = new Set(['content-length', 'connection', 'transfer-encoding']);

/**
 * The request's bytes as bench's own clients write them: the spec's headers, a Host and a User-Agent unless it gives
 * them, framing by Content-Length; without keep-alive it asks the server to close after the answer, as ab without -k.
 */
export function encodeHttp1Request(request: Http1Request, keepAlive: boolean): Buffer {
  const given = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  if (!given.has('host')) lines.push(`Host: ${request.host}`);
  for (const [name, value] of Object.entries(request.headers)) if (!ENGINE_HEADERS.has(name.toLowerCase())) lines.push(`${name}: ${value}`);
  if (!given.has('user-agent')) lines.push('User-Agent: bench');
  if (!keepAlive) lines.push('Connection: close');
  const body = request.body !== undefined ? Buffer.from(request.body) : undefined;
  if (body) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}
