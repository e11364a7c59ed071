import { messageOf } from '../errors.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as CsvParse from 'csv-parse/sync';

let csvParse: typeof CsvParse | undefined;
/** csv-parse, loaded with the first CSV file rather than with every command (it is ten modules). */
const csv = (): typeof CsvParse => (csvParse ??= createRequire(import.meta.url)('csv-parse/sync') as typeof CsvParse);

/** A data file's rows, each a column -> text map, and its columns. */
export interface DataRows {
  readonly columns: readonly string[];
  readonly rows: readonly Readonly<Record<string, string>>[];
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Reads a data file: CSV with a header line (csv-parse), or JSON lines (`.jsonl`/`.ndjson`, one object a line).
 * Throws an Error whose message says what is wrong with the file, for the caller to place.
 */
export function readDataFile(file: string): DataRows {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`data file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const ext = path.extname(file).toLowerCase();
  let records: Record<string, unknown>[];
  if (ext === '.jsonl' || ext === '.ndjson') {
    records = text
      .split('\n')
      .map((line, i) => [line.trim(), i + 1] as const)
      .filter(([line]) => line !== '')
      .map(([line, number]) => {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          throw new Error(`data file ${file}: line ${number} is not JSON`);
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          throw new Error(`data file ${file}: line ${number} is not a JSON object`);
        return value as Record<string, unknown>;
      });
  } else {
    try {
      records = csv().parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, unknown>[];
    } catch (error) {
      throw new Error(`data file ${file} is not CSV with a header line: ${messageOf(error)}`);
    }
  }
  if (records.length === 0) throw new Error(`data file ${file} holds no rows`);
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  return { columns, rows: records.map((record) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, asText(v)]))) };
}
