import http from 'node:http';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  /** Bytes of the status line and headers as received. */
  readonly headerBytes: number;
}

export interface HttpRequestSpec {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

/** One request on a fresh connection (no agent), with a deadline. */
export function httpRequest(url: string, spec: HttpRequestSpec = {}, timeoutMs = 5000): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'close', ...spec.headers };
    if (spec.body) headers['content-length'] = String(spec.body.length);
    const request = http.request(url, { method: spec.method ?? 'GET', agent: false, timeout: timeoutMs, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = response.rawHeaders;
        let headerBytes = `HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}\r\n`.length + 2;
        for (let i = 0; i + 1 < raw.length; i += 2) headerBytes += `${raw[i]}: ${raw[i + 1]}\r\n`.length;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), headerBytes });
      });
    });
    // internal: destroy() hands this to the 'error' handler below, whose caller says which request and what to do
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(spec.body);
  });
}

/** One GET on a fresh connection (no agent), with a deadline. */
export function httpGet(url: string, timeoutMs = 5000): Promise<HttpAnswer> {
  return httpRequest(url, {}, timeoutMs);
}
