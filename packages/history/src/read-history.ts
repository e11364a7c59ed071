import { readFile } from 'node:fs/promises';
import { errors } from '@bench/core';
import { describeIssue } from '@bench/core';
import { historyEntrySchema, type HistoryEntry } from './history-entry.js';

export interface DamagedLine {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly reason: string;
}

export interface History {
  readonly file: string;
  /** Every valid entry, in file order. */
  readonly entries: readonly HistoryEntry[];
  /** Lines skipped: not JSON, or not a history entry of a version this bench reads. */
  readonly damaged: readonly DamagedLine[];
}

/** Parses the text of a history file: a damaged line is skipped and reported with its number, never fatal. */
export function parseHistory(text: string, file = '(history)'): History {
  const entries: HistoryEntry[] = [];
  const damaged: DamagedLine[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      damaged.push({ line: index + 1, reason: 'not valid JSON (a truncated or hand-edited line?)' });
      return;
    }
    const parsed = historyEntrySchema.safeParse(value);
    if (parsed.success) entries.push(parsed.data);
    else damaged.push({ line: index + 1, reason: `not a history entry: ${describeIssue(parsed.error.issues[0]!)}` });
  });
  return { file, entries, damaged };
}

/** Reads a history file (JSON Lines). A missing file is an error that says how to start one. */
export async function readHistory(file: string): Promise<History> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw errors.history(
      file,
      code === 'ENOENT' ? 'no such file; start it with `bench run --history` or `bench history add results.json`' : String(code ?? error),
    );
  }
  return parseHistory(text, file);
}
