import path from 'node:path';
import type { RunDocument } from '@bench/core';
import { appendHistory } from './append-history.js';
import { mergeGitInfo, readGitInfo } from './git-info.js';
import type { GitInfo } from './history-entry.js';
import { historyEntriesOf } from './history-entries.js';

export const DEFAULT_HISTORY_FILE = 'bench-history.jsonl';

/** The history file a run's `history` option names: true for bench-history.jsonl in `baseDir`, a path resolved against it. */
export function historyFilePath(value: string | boolean | undefined, baseDir: string): string | undefined {
  if (value === undefined || value === false) return undefined;
  return path.resolve(baseDir, value === true ? DEFAULT_HISTORY_FILE : value);
}

/**
 * Appends every cell of a run, with the commit `gitDir` is at (flags in `given` over git's answers), and its profile
 * when `profiles`; returns the lines added.
 */
export async function appendRunToHistory(
  doc: RunDocument,
  file: string,
  gitDir: string,
  given: GitInfo = {},
  profiles = false,
): Promise<number> {
  const entries = historyEntriesOf(doc, mergeGitInfo(await readGitInfo(gitDir), given), new Date(), profiles);
  await appendHistory(file, entries);
  return entries.length;
}
