import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { historyEntrySchema, type HistoryEntry } from './history-entry.js';
import { withFileLock } from './file-lock.js';

/**
 * Appends entries to a history file as one write, holding `<file>.lock`, so two appends at once
 * never interleave or lose a line. A last line left unfinished by a crash stays on a line of its
 * own (readHistory reports it and skips it).
 */
export async function appendHistory(file: string, entries: readonly HistoryEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const text = entries.map((entry) => JSON.stringify(historyEntrySchema.parse(entry))).join('\n') + '\n';
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await withFileLock(`${file}.lock`, async () => {
    const handle = await open(file, 'a+');
    try {
      const { size } = await handle.stat();
      let prefix = '';
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) prefix = '\n';
      }
      const data = Buffer.from(prefix + text);
      let written = 0;
      while (written < data.length) written += (await handle.write(data, written)).bytesWritten;
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
}
