import { errors, runDocumentSchema, type CellResult, type RunDocument } from '@bench/core';
import { JOURNAL_FORMAT, JOURNAL_VERSION, type JournalLine } from './journal-lines.js';
import { InterruptedCell } from './interrupted-cell.js';

/** Whether a file's text is a run journal (its first line is a journal header), not a results document. */
export const isJournalText = (text: string): boolean => /^\{"type":"header","format":"bench-run-journal"/.test(text);

/**
 * Reads a journal as it grows: each complete line once (a line is complete when its newline is written, so a last
 * line cut short by a kill is never read), keeping the finished cells and the cell in progress.
 */
export class JournalReader {
  private tail = '';
  private lineNumber = 0;
  private header: Extract<JournalLine, { type: 'header' }> | undefined;
  private end: RunDocument | undefined;
  private readonly results: CellResult[] = [];
  private open: { cell: number; seconds: InterruptedCell } | undefined;

  constructor(readonly file: string) {}

  /** Takes the text written since the last call. */
  feed(text: string): this {
    const lines = (this.tail + text).split('\n');
    this.tail = lines.pop() ?? '';
    for (const line of lines) this.take(line);
    return this;
  }

  /**
   * The run so far: the finished document when the run ended; otherwise every finished cell and the cell in progress
   * as far as its seconds reached (marked interrupted), in a document marked incomplete. `live`: the run is still
   * going (the dashboard reads it), its cell in progress noted as such.
   */
  document(live = false): RunDocument {
    if (!this.header)
      throw errors.journal(this.file, 'it does not start with a bench run journal header; give the journal a bench run wrote');
    if (this.end) return parsed(this.file, this.end);
    const cut = this.open?.seconds.cell(live);
    return parsed(this.file, { ...this.header.document, complete: false, results: cut ? [...this.results, cut] : this.results });
  }

  private take(text: string): void {
    this.lineNumber++;
    let line: JournalLine;
    try {
      line = JSON.parse(text) as JournalLine;
    } catch {
      throw errors.journal(this.file, `line ${this.lineNumber} is damaged (not JSON); the journal cannot be read past it`);
    }
    if (this.lineNumber === 1) {
      if (line.type !== 'header' || line.format !== JOURNAL_FORMAT)
        throw errors.journal(this.file, 'it does not start with a bench run journal header; give the journal a bench run wrote');
      if (line.version !== JOURNAL_VERSION)
        throw errors.journal(
          this.file,
          `it is version ${line.version} of the journal, this bench reads version ${JOURNAL_VERSION}; use the bench that wrote it`,
        );
      this.header = line;
    } else if (line.type === 'cell') {
      this.open?.seconds.destroy();
      this.open = { cell: line.cell, seconds: new InterruptedCell(line.unfinished) };
    } else if (line.type === 'second' && this.open?.cell === line.cell) this.open.seconds.add(line.second);
    else if (line.type === 'result') {
      this.results.push(line.result);
      if (this.open?.cell === line.cell) {
        this.open.seconds.destroy();
        this.open = undefined;
      }
    } else if (line.type === 'end') this.end = line.document;
  }
}

/** The run a whole journal tells (see JournalReader.document). */
export function readJournal(file: string, text: string, live = false): RunDocument {
  return new JournalReader(file).feed(text).document(live);
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
