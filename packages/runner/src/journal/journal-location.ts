import { accessSync, constants, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The default folder keeps the newest journals only.
const KEPT_JOURNALS = 20;

/** Where journals go when a run writes no file of its own: $XDG_STATE_HOME/bench/journals (~/.local/state by default). */
export function defaultJournalFolder(env: NodeJS.ProcessEnv = process.env): string {
  const state = env['XDG_STATE_HOME'] || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'bench', 'journals');
}

/**
 * The journal of a run: the path given (--journal), else beside the first --out file (results.json ->
 * results.journal.jsonl), else a file named by the time and process in the default folder, whose oldest
 * journals beyond the newest twenty are removed. Undefined (with the reason told to `warn`) when the default
 * folder cannot be written: a run asked for no file of its own, so it runs without a journal rather than fail.
 */
export function journalPath(
  given: string | undefined,
  outFiles: readonly string[],
  warn: (line: string) => void,
  now = new Date(),
): string | undefined {
  if (given !== undefined) return path.resolve(given);
  const out = outFiles[0];
  if (out !== undefined) {
    const file = path.resolve(out);
    return path.join(path.dirname(file), `${path.basename(file, path.extname(file))}.journal.jsonl`);
  }
  const folder = defaultJournalFolder();
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    accessSync(folder, constants.W_OK);
  } catch (error) {
    warn(
      `no run journal: ${folder} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}); give --journal FILE to keep one`,
    );
    return undefined;
  }
  pruneJournals(folder);
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  return path.join(folder, `run-${stamp}-${process.pid}.journal.jsonl`);
}

function pruneJournals(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.journal.jsonl'));
  } catch {
    return;
  }
  const byAge = names
    .map((name) => ({ file: path.join(folder, name), mtime: statSync(path.join(folder, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of byAge.slice(KEPT_JOURNALS - 1)) rmSync(old.file, { force: true });
}
