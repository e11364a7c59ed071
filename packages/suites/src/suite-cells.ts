import type { CellResult, RunDocument } from '@bench/core';
import { fieldValue } from './fields.js';
import { scaleConcurrency } from './scale.js';
import type { PublishedCell, PublishedTable, SuiteDefinition, SuiteTable } from './suite-schema.js';

/** One column of a rendered table: an article column, or one figure of it when cells hold several. */
export interface TableColumn {
  readonly label: string;
  readonly article: string;
  readonly metric?: string;
  readonly field: string;
}

export interface TableRow {
  readonly label: string;
  /** The target standing for this row today; absent for the article's rows that cannot be rerun. */
  readonly target?: string;
  readonly extra: boolean;
}

export type Measured = number | string | undefined;

/** The columns of a table: each article column, split into its figures for multi-figure tables. */
export function tableColumns(published: PublishedTable, table: SuiteTable): TableColumn[] {
  return published.columns.flatMap((article) => {
    const spec = table.columns[article];
    if (published.metrics) {
      return published.metrics.map((m) => ({
        label: `${article} ${m.label}`,
        article,
        metric: m.id,
        field: table.metrics?.[m.id] ?? m.id,
      }));
    }
    return [{ label: article, article, field: spec?.field ?? table.metric ?? 'rps' }];
  });
}

export function tableRows(published: PublishedTable, table: SuiteTable): TableRow[] {
  const spec = (label: string) => table.rows[label];
  return [
    ...published.rows.map((row) => {
      const s = spec(row.label);
      const target = s?.target ?? (s ? Object.values(table.columns).find((c) => c.target)?.target : undefined);
      return { label: row.label, ...(target ? { target } : s ? { target: '' } : {}), extra: false };
    }),
    ...table.extraRows.map((row) => ({ label: row.label, ...(row.target ? { target: row.target } : {}), extra: true })),
  ];
}

/** The article's figure for a row and column, as printed. */
export function publishedValue(published: PublishedTable, rowLabel: string, column: TableColumn): PublishedCell {
  const row = published.rows.find((r) => r.label === rowLabel);
  const index = published.columns.indexOf(column.article);
  if (!row || index < 0) return null;
  const value = row.values[index] ?? null;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return column.metric ? (value[column.metric] ?? null) : null;
  return value;
}

/** The repeats of the cell a row and column stand for today, found in the suite's results. */
export function cellRepeats(doc: RunDocument, table: SuiteTable, row: TableRow, column: TableColumn): CellResult[] {
  const rowSpec = row.extra ? table.extraRows.find((r) => r.label === row.label) : table.rows[row.label];
  if (!rowSpec) return [];
  const colSpec = table.columns[column.article] ?? {};
  if (colSpec.rows && !colSpec.rows.includes(row.label)) return [];
  if (colSpec.notRows?.includes(row.label)) return [];
  const want = { scenario: table.scenario, concurrency: table.concurrency, ...stripUndefined(rowSpec), ...stripUndefined(colSpec) };
  const concurrency = want.concurrency === undefined ? undefined : scaleConcurrency(want.concurrency, doc.suite?.scale ?? 1);
  return doc.results.filter(
    (r) =>
      (table.run === undefined || r.suiteRun === table.run) &&
      (want.target === undefined || r.target === want.target) &&
      (want.scenario === undefined || r.scenario === want.scenario) &&
      (concurrency === undefined || r.concurrency === concurrency),
  );
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Today's figure for a row and column: the repeats combined as the suite says; undefined when not measured. */
export function measuredValue(
  doc: RunDocument,
  definition: SuiteDefinition,
  table: SuiteTable,
  row: TableRow,
  column: TableColumn,
): Measured | 'failed' {
  const repeats = cellRepeats(doc, table, row, column);
  if (repeats.length === 0) return undefined;
  const ok = repeats.filter((r) => r.status === 'ok');
  if (ok.length === 0) return 'failed';
  return fieldValue(column.field, ok, definition.aggregate);
}

/** The first number of a published figure ("131/268" -> 131), for ratios. */
export function publishedNumber(value: PublishedCell): number | undefined {
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value[0];
  return undefined;
}
