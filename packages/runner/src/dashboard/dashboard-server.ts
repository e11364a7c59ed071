import http from 'node:http';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { AddressInfo } from 'node:net';
import { errors, type RunDocument } from '@bench/core';
import { renderPage, renderRunBody, renderRunHtml } from '@bench/reporters';
import { JournalReader } from '../journal/read-journal.js';
import { liveScript } from './live-script.js';

// After the run, the server answers this long more, so a page polling every second gets the final report.
const FINAL_GRACE_MS = 2500;

export interface Dashboard {
  readonly url: string;
  /** The run ended: serve its final report for a moment, then stop listening. */
  finish(): Promise<void>;
}

/**
 * A live page of the run on 127.0.0.1: the HTML report of the journal so far (the same charts), which the page
 * fetches again every second; a browser that opens late or reloads gets the run from its start. At the end it
 * offers the final report, and nothing listens once the run is over.
 */
export async function startDashboard(journal: string, port: number): Promise<Dashboard> {
  let finished = false;
  // the journal is read as it grows: each request takes only the bytes written since the last (one read at a time)
  const reader = new JournalReader(journal);
  const decoder = new StringDecoder('utf8');
  let offset = 0;
  const readNew = async (): Promise<void> => {
    const file = await open(journal, 'r').catch(() => undefined);
    if (!file) return;
    try {
      for (;;) {
        const { bytesRead, buffer } = await file.read({ buffer: Buffer.alloc(1 << 20), position: offset });
        if (bytesRead === 0) break;
        offset += bytesRead;
        reader.feed(decoder.write(buffer.subarray(0, bytesRead)));
      }
    } finally {
      await file.close();
    }
  };
  let reading = Promise.resolve();
  const current = async (): Promise<RunDocument | undefined> => {
    reading = reading.then(readNew, readNew);
    await reading;
    return offset > 0 ? reader.document(!finished) : undefined;
  };
  const server = http.createServer((request, response) => {
    void (async () => {
      const doc = await current();
      const send = (type: string, body: string) => {
        response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
        response.end(body);
      };
      if (request.url === '/') {
        const body = doc ? renderRunBody(doc, '', !finished) : '<p class="meta">Waiting for the run to start.</p>';
        send(
          'text/html; charset=utf-8',
          renderPage('bench: live', `<p id="bench-live-status" class="meta"></p><main id="bench-live">${body}</main>${liveScript}`, true),
        );
      } else if (request.url === '/body') {
        send('application/json', JSON.stringify({ finished, html: doc ? renderRunBody(doc, '', !finished) : '' }));
      } else if (request.url === '/report.html' && doc) {
        send('text/html; charset=utf-8', renderRunHtml(doc));
      } else if (request.url === '/favicon.ico') {
        response.writeHead(204).end(); // browsers ask for one; the page has none
      } else {
        response.writeHead(404).end();
      }
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? errors.usage(`--dashboard-port ${port} is in use; choose another port, or 0 for any free one`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/`,
    async finish() {
      finished = true;
      await new Promise((resolve) => setTimeout(resolve, FINAL_GRACE_MS));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
