import type http from 'node:http';
import { nodeHttp } from './node-http.js';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  /** Bytes of the status line and headers as received. */
  readonly headerBytes: number;
  /** What the server did that some load engines count wrongly (HTTP/1.x only); none when absent. */
  readonly habits?: readonly ServerHabit[];
}

/**
 * Things servers do within HTTP/1.1 that some engines miscount (docs/engines.md, the conformance table): interim
 * answers (100, 103) before the answer, a body that ends with the connection, a Content-Length said twice or as a
 * list, a 204 or 304 that says a length, answers to no request.
 */
export type ServerHabit =
  | 'interim answers'
  | 'a body ended by the close'
  | 'a repeated Content-Length'
  | 'no body after a length'
  /** Found apart, on a kept-alive connection (sendsUnaskedAnswers): a server that answers twice, or floods. */
  | 'answers to no request';

/** The habits an HTTP/1.x answer shows: its interim answers, its raw headers, its status, and whether it was to HEAD. */
export function serverHabits(interim: number, rawHeaders: readonly string[], status: number, head: boolean): ServerHabit[] {
  const habits: ServerHabit[] = [];
  if (interim > 0) habits.push('interim answers');
  const lengths = rawHeaders.filter((v, i) => i % 2 === 1 && rawHeaders[i - 1]!.toLowerCase() === 'content-length');
  const codings = rawHeaders.filter((v, i) => i % 2 === 1 && rawHeaders[i - 1]!.toLowerCase() === 'transfer-encoding');
  if (lengths.length > 1 || lengths.some((v) => v.includes(','))) habits.push('a repeated Content-Length');
  const noBody = head || status === 204 || status === 304;
  if (noBody && lengths.length > 0 && !lengths.every((v) => v.trim() === '0')) habits.push('no body after a length');
  const chunkedLast = codings.length > 0 && /(?:^|,)\s*chunked\s*$/i.test(codings.join(','));
  if (!noBody && ((codings.length > 0 && !chunkedLast) || (codings.length === 0 && lengths.length === 0)))
    habits.push('a body ended by the close');
  return habits;
}

/** The bytes of an answer's body verification reads at most: a server that sends more fails, and costs no more memory. */
export const MAX_VERIFIED_BODY = 64 * 1024 * 1024;

/** Takes a verified answer's body slices into `chunks`; past MAX_VERIFIED_BODY, calls `fail` once with why. */
export function verifiedBodyTaker(chunks: Buffer[], fail: (error: Error) => void): (chunk: Buffer) => void {
  let total = 0;
  return (chunk) => {
    if (total > MAX_VERIFIED_BODY) return;
    total += chunk.length;
    if (total <= MAX_VERIFIED_BODY) chunks.push(chunk);
    else {
      chunks.length = 0;
      fail(new Error(`its body went past ${MAX_VERIFIED_BODY} bytes, the most bench reads of an answer it verifies`));
    }
  };
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
    let interim = 0;
    const request = nodeHttp().request(url, { method: spec.method ?? 'GET', agent: false, timeout: timeoutMs, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on(
        'data',
        verifiedBodyTaker(chunks, (error) => request.destroy(error)),
      );
      response.on('error', reject);
      response.on('end', () => {
        const raw = response.rawHeaders;
        let headerBytes = `HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}\r\n`.length + 2;
        for (let i = 0; i + 1 < raw.length; i += 2) headerBytes += `${raw[i]}: ${raw[i + 1]}\r\n`.length;
        const status = response.statusCode ?? 0;
        const habits = serverHabits(interim, raw, status, (spec.method ?? 'GET') === 'HEAD');
        resolve({ status, headers: response.headers, body: Buffer.concat(chunks), headerBytes, ...(habits.length > 0 ? { habits } : {}) });
      });
    });
    // internal: destroy() hands this to the 'error' handler below, whose caller says which request and what to do
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    // 1xx answers before the answer (Node tells of every one but 101)
    request.on('information', () => interim++);
    request.end(spec.body);
  });
}

/** One GET on a fresh connection (no agent), with a deadline. */
export function httpGet(url: string, timeoutMs = 5000): Promise<HttpAnswer> {
  return httpRequest(url, {}, timeoutMs);
}
