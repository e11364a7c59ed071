import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { httpRequest, serverHabits, verifiedBodyTaker, type HttpAnswer, type HttpRequestSpec } from '../http.js';
import type { Protocol } from './protocol.js';

/** How a request reaches the server: the protocol, and over TLS the only authority trusted (the run's CA). */
export interface Transport {
  readonly protocol: Protocol;
  readonly caFile?: string;
}

/** An answer, with what TLS negotiated (the ALPN protocol, absent over cleartext). */
export type ProtocolAnswer = HttpAnswer & { readonly alpn?: string };

function overHttps(url: string, spec: HttpRequestSpec, ca: Buffer | undefined, timeoutMs: number): Promise<ProtocolAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'close', ...spec.headers };
    if (spec.body) headers['content-length'] = String(spec.body.length);
    let interim = 0;
    const request = https.request(
      url,
      { method: spec.method ?? 'GET', agent: false, timeout: timeoutMs, headers, ...(ca ? { ca } : {}) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on(
          'data',
          verifiedBodyTaker(chunks, (error) => request.destroy(error)),
        );
        response.on('error', reject);
        response.on('end', () => {
          const alpn = (response.socket as TLSSocket).alpnProtocol;
          const status = response.statusCode ?? 0;
          const habits = serverHabits(interim, response.rawHeaders, status, (spec.method ?? 'GET') === 'HEAD');
          resolve({
            status,
            headers: response.headers,
            body: Buffer.concat(chunks),
            headerBytes: 0,
            ...(typeof alpn === 'string' ? { alpn } : {}),
            ...(habits.length > 0 ? { habits } : {}),
          });
        });
      },
    );
    // internal: destroy() hands this to the 'error' handler below, whose caller says which request and what to do
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.on('information', () => interim++);
    request.end(spec.body);
  });
}

function overHttp2(url: string, spec: HttpRequestSpec, ca: Buffer | undefined, timeoutMs: number): Promise<ProtocolAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const session = http2.connect(target.origin, ca ? { ca } : {});
    const fail = (error: Error) => {
      session.destroy();
      reject(error);
    };
    session.on('error', fail);
    const timer = setTimeout(() => fail(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const stream = session.request({
      ':method': spec.method ?? 'GET',
      ':path': `${target.pathname}${target.search}`,
      ...spec.headers,
      ...(spec.body ? { 'content-length': String(spec.body.length) } : {}),
    });
    const chunks: Buffer[] = [];
    let headers: http2.IncomingHttpHeaders & http2.IncomingHttpStatusHeader = {};
    stream.on('response', (h) => (headers = h));
    stream.on(
      'data',
      verifiedBodyTaker(chunks, (error) => fail(error)),
    );
    stream.on('error', fail);
    stream.on('end', () => {
      clearTimeout(timer);
      const alpn = session.alpnProtocol;
      session.close();
      const { ':status': status, ...rest } = headers;
      resolve({ status: status ?? 0, headers: rest, body: Buffer.concat(chunks), headerBytes: 0, ...(alpn ? { alpn } : {}) });
    });
    stream.end(spec.body);
  });
}

/** One request on a fresh connection over the transport's protocol, the server's certificate checked against its CA. */
export function protocolRequest(
  url: string,
  spec: HttpRequestSpec,
  transport: Transport | undefined,
  timeoutMs = 5000,
): Promise<ProtocolAnswer> {
  const protocol = transport?.protocol ?? 'http1';
  if (protocol === 'http1') return httpRequest(url, spec, timeoutMs);
  const ca = transport?.caFile ? readFileSync(transport.caFile) : undefined;
  return protocol === 'https' ? overHttps(url, spec, ca, timeoutMs) : overHttp2(url, spec, ca, timeoutMs);
}
