import { open, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { renderPage, renderRunBody, renderRunHtml } from '@bench/reporters';
import { JournalReader } from '../journal/read-journal.js';
import { liveScript } from './live-script.js';

/** What the dashboard serves, as text: the page, the body it polls for, the final report once the run ended. */
export interface RenderedPages {
  readonly page: string;
  readonly body: string;
  readonly report?: string;
}

const WAITING = '<p class="meta">Waiting for the run to start.</p>';

/**
 * The dashboard's pages from the run's journal, rendered once each time the journal has grown (or the run has ended)
 * and served from memory otherwise: a browser polling every second, or ten browsers, cost one render per change.
 */
export class DashboardPages {
  private readonly reader: JournalReader;
  private readonly decoder = new StringDecoder('utf8');
  private offset = 0;
  private cached: { readonly key: string; readonly pages: RenderedPages } | undefined;
  private pending: Promise<RenderedPages> | undefined;

  constructor(private readonly journal: string) {
    this.reader = new JournalReader(journal);
  }

  /** The pages as the journal stands now; one refresh at a time, which every request waiting on it shares. */
  current(finished: boolean): Promise<RenderedPages> {
    this.pending ??= this.refresh(finished).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async refresh(finished: boolean): Promise<RenderedPages> {
    const size = await stat(this.journal).then(
      (s) => s.size,
      () => 0,
    );
    const key = `${size} ${finished}`;
    if (this.cached?.key === key) return this.cached.pages;
    if (size > this.offset) await this.readFrom(size);
    const doc = this.offset > 0 ? this.reader.document(!finished) : undefined;
    const body = doc ? renderRunBody(doc, '', !finished) : '';
    const pages = {
      page: renderPage(
        'bench: live',
        `<p id="bench-live-status" class="meta"></p><main id="bench-live">${body || WAITING}</main>${liveScript}`,
        true,
      ),
      body: JSON.stringify({ finished, html: body }),
      ...(doc && finished ? { report: renderRunHtml(doc) } : {}),
    };
    this.cached = { key, pages };
    return pages;
  }

  // the journal is read as it grows: only the bytes written since the last read
  private async readFrom(size: number): Promise<void> {
    const file = await open(this.journal, 'r');
    try {
      while (this.offset < size) {
        const { bytesRead, buffer } = await file.read({
          buffer: Buffer.alloc(Math.min(1 << 20, size - this.offset)),
          position: this.offset,
        });
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        this.reader.feed(this.decoder.write(buffer.subarray(0, bytesRead)));
      }
    } finally {
      await file.close();
    }
  }
}
