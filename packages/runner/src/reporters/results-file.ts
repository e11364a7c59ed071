import { readFileSync } from 'node:fs';
import { errors, runDocumentSchema, type Reporter, type RunDocument, callReporters, endReporters } from '@bench/core';
import { isJournalText, readJournal } from '../journal/read-journal.js';

/** Reads and validates a results file written by the json reporter. */
export function readResultsFile(file: string): RunDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw errors.resultsFile(
      file,
      code === 'ENOENT' ? 'no such file; give the path of a file written by `--reporter json --out FILE`' : String(code ?? error),
    );
  }
  if (isJournalText(text)) return readJournal(file, text);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw errors.resultsFile(
      file,
      'it is not valid JSON (truncated or not written by bench?); re-run, or restore it from the run that wrote it',
    );
  }
  const parsed = runDocumentSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw errors.resultsFile(file, `it is not a bench results file (schema version 1)${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Feeds a finished document to reporters as if the run were happening: start, each result, end. */
export async function replayDocument(doc: RunDocument, reporters: readonly Reporter[]): Promise<void> {
  const live: RunDocument = { ...doc, results: [] };
  await callReporters(reporters, 'onRunStart', live);
  for (const result of doc.results) {
    live.results.push(result);
    await callReporters(reporters, 'onResult', live, result);
  }
  const failure = await endReporters(reporters, live);
  if (failure !== undefined) throw failure;
}
