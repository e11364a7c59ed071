import { closeSync, fdatasyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { errors, type RunDocument } from '@bench/core';
import type { RunEvent } from '../run/run-events.js';
import { JOURNAL_FORMAT, JOURNAL_VERSION, type JournalLine } from './journal-lines.js';

// Lines reach the kernel as they are written (a kill -9 loses nothing written); this often, they also reach the disk.
const SYNC_EVERY_MS = 1000;

/**
 * Appends a run to its journal as it happens: each line in one write to a file opened for appending, so a
 * process killed at any instant leaves whole lines, and at most the second in progress is lost.
 */
export class JournalWriter {
  private cell = 0;
  /** The measured cell in progress, if any (warm-up seconds are not journalled). */
  private measuring: number | undefined;
  private lastSyncMs = 0;

  private constructor(
    readonly file: string,
    private fd: number | undefined,
  ) {}

  /** Opens (creates, mode 0600) the journal and writes the run's header; a journal that cannot be written is bad input. */
  static open(file: string, doc: RunDocument): JournalWriter {
    let fd: number;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      fd = openSync(file, 'a', 0o600);
    } catch (error) {
      throw errors.journal(
        file,
        `cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}); give --journal a path you can write to`,
      );
    }
    const writer = new JournalWriter(file, fd);
    writer.write({ type: 'header', format: JOURNAL_FORMAT, version: JOURNAL_VERSION, document: doc });
    return writer;
  }

  /** Journals what a run event says: a measured cell's start, its closed seconds, its result. */
  record(event: RunEvent): void {
    if (event.type === 'cell-start') {
      this.measuring = undefined;
      if (event.phase !== 'measure' || !event.unfinished) return;
      this.measuring = ++this.cell;
      this.write({ type: 'cell', cell: this.measuring, unfinished: event.unfinished });
    } else if (event.type === 'cell-progress' && this.measuring !== undefined) {
      for (const second of event.progress.seconds ?? []) this.write({ type: 'second', cell: this.measuring, second });
      this.syncNow();
    } else if (event.type === 'cell-end') {
      this.write({ type: 'result', cell: this.measuring ?? ++this.cell, result: event.result });
      this.measuring = undefined;
      this.syncNow(true);
    }
  }

  /** Writes the finished document and closes the journal. */
  end(doc: RunDocument): void {
    this.write({ type: 'end', document: doc });
    this.syncNow(true);
    this.close();
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private write(line: JournalLine): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  private syncNow(always = false): void {
    const now = Date.now();
    if (this.fd === undefined || (!always && now - this.lastSyncMs < SYNC_EVERY_MS)) return;
    this.lastSyncMs = now;
    fdatasyncSync(this.fd);
  }
}
