import http from 'node:http';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  /** Bytes of the status line and headers as received. */
  readonly headerBytes: number;
}

/** One GET on a fresh connection (no agent), with a deadline. */
export function httpGet(url: string, timeoutMs = 5000): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs, headers: { connection: 'close' } }, (response) => {
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
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}
