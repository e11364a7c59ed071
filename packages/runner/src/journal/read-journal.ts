import { errors, runDocumentSchema, type CellResult, type LiveSecond, type RunDocument } from '@bench/core';
import { JOURNAL_FORMAT, JOURNAL_VERSION, type JournalLine } from './journal-lines.js';
import { interruptedCell } from './interrupted-cell.js';

/** Whether a file's text is a run journal (its first line is a journal header), not a results document. */
export const isJournalText = (text: string): boolean => /^\{"type":"header","format":"bench-run-journal"/.test(text);

/**
 * The run a journal tells: the finished document when the run ended; otherwise every finished cell and the cell
 * in progress as far as its seconds reached (marked interrupted), in a document marked incomplete. A last line cut
 * short (the process killed during a write) is left out; a damaged line before it is an error. `live`: the run is
 * still going (the dashboard reads it), its cell in progress noted as such.
 */
export function readJournal(file: string, text: string, live = false): RunDocument {
  const raw = text.split('\n');
  if (raw.at(-1) === '') raw.pop();
  const lines: JournalLine[] = [];
  raw.forEach((line, i) => {
    try {
      lines.push(JSON.parse(line) as JournalLine);
    } catch {
      if (i < raw.length - 1) throw errors.journal(file, `line ${i + 1} is damaged (not JSON); the journal cannot be read past it`);
    }
  });
  const header = lines[0];
  if (header?.type !== 'header' || header.format !== JOURNAL_FORMAT)
    throw errors.journal(file, 'it does not start with a bench run journal header; give the journal a bench run wrote');
  if (header.version !== JOURNAL_VERSION)
    throw errors.journal(
      file,
      `it is version ${header.version} of the journal, this bench reads version ${JOURNAL_VERSION}; use the bench that wrote it`,
    );
  const end = lines.find((line) => line.type === 'end');
  if (end) return parsed(file, end.document);

  const results: CellResult[] = [];
  let open: { cell: number; unfinished: CellResult; seconds: LiveSecond[] } | undefined;
  for (const line of lines) {
    if (line.type === 'cell') open = { cell: line.cell, unfinished: line.unfinished, seconds: [] };
    else if (line.type === 'second' && open?.cell === line.cell) open.seconds.push(line.second);
    else if (line.type === 'result') {
      results.push(line.result);
      if (open?.cell === line.cell) open = undefined;
    }
  }
  if (open && open.seconds.length > 0) results.push(interruptedCell(open.unfinished, open.seconds, live));
  return parsed(file, { ...header.document, complete: false, results });
}

function parsed(file: string, doc: unknown): RunDocument {
  const result = runDocumentSchema.safeParse(doc);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw errors.journal(
      file,
      `its run does not read as a bench run${issue?.path.length ? ` at ${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return result.data;
}
