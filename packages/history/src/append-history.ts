import { mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { historyEntrySchema, type HistoryEntry } from './history-entry.js';
import { withFileLock } from './file-lock.js';

/**
 * Appends entries to a history file, holding `<file>.lock` so two appends at once never interleave or lose a
 * line: the file and its new lines are written to a temporary file beside it, synced, and renamed over it, so a
 * crash at any point leaves the history as it was or with every new line, never half a line.
 */
export async function appendHistory(file: string, entries: readonly HistoryEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const text = entries.map((entry) => JSON.stringify(historyEntrySchema.parse(entry))).join('\n') + '\n';
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await withFileLock(`${file}.lock`, async () => {
    const before = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    // a line a writer of an older bench left unfinished stays on a line of its own (readHistory reports and skips it)
    const prefix = before.length > 0 && !before.endsWith('\n') ? '\n' : '';
    const temp = `${file}.tmp-${process.pid}`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(before + prefix + text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  });
}
