import { messageOf } from '@bench/core';
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DashboardPages } from './dashboard-pages.js';

// Every answer: never cached, never sniffed, readable by no other origin (no CORS header is ever sent).
const HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'cross-origin-resource-policy': 'same-origin' };

/**
 * The hosts a request may name: this server's own address and port. A page elsewhere that rebinds its own name to
 * 127.0.0.1 (DNS rebinding) sends its own name as Host, and is refused.
 */
export const ownHosts = (port: number): ReadonlySet<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

/** Whether a request's path starts with the run's token (`/TOKEN/...`), compared in constant time; the rest of it. */
function afterToken(url: string | undefined, token: Buffer): string | undefined {
  const match = /^\/([A-Za-z0-9_-]+)(\/.*)$/.exec(url ?? '');
  if (!match) return undefined;
  const given = Buffer.from(match[1]!);
  return given.length === token.length && timingSafeEqual(given, token) ? match[2] : undefined;
}

/**
 * The dashboard's HTTP server on 127.0.0.1: its page, the body the page polls, the final report, each under the run's
 * token (`/TOKEN/`, so another user of the machine cannot read a run whose journal only its owner can); 421 to a
 * foreign Host, 403 without the token.
 */
export async function serveDashboard(pages: DashboardPages, port: number, isFinished: () => boolean, token: string): Promise<http.Server> {
  let hosts: ReadonlySet<string> = new Set();
  const key = Buffer.from(token);
  const server = http.createServer((request, response) => {
    if (!hosts.has((request.headers.host ?? '').toLowerCase())) {
      response.writeHead(421, { ...HEADERS, 'content-type': 'text/plain' }).end('bench: this dashboard answers only to its own address\n');
      return;
    }
    if (request.url === '/favicon.ico') return void response.writeHead(204, HEADERS).end(); // browsers ask for one; the page has none
    const path = afterToken(request.url, key);
    if (path === undefined) {
      response
        .writeHead(403, { ...HEADERS, 'content-type': 'text/plain' })
        .end('bench: this dashboard answers only with its token: open the URL bench printed when the run started\n');
      return;
    }
    const send = (type: string, body: string) => response.writeHead(200, { ...HEADERS, 'content-type': type }).end(body);
    void (async () => {
      const finished = isFinished();
      if (path !== '/' && path !== '/body' && path !== '/report.html') return void response.writeHead(404, HEADERS).end();
      const current = await pages.current(finished);
      if (path === '/') send('text/html; charset=utf-8', current.page);
      else if (path === '/body') send('application/json', current.body);
      else if (current.report !== undefined) send('text/html; charset=utf-8', current.report);
      else response.writeHead(404, HEADERS).end();
    })().catch((error: unknown) => {
      response.writeHead(500, { ...HEADERS, 'content-type': 'text/plain' }).end(messageOf(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  hosts = ownHosts((server.address() as AddressInfo).port);
  return server;
}
