import type { CellResult, RunDocument } from '@bench/core';
import {
  cellRepeats,
  measuredValue,
  publishedValue,
  tableColumns,
  tableRows,
  type PublishedCell,
  type PublishedTable,
  type Suite,
  type SuiteTable,
  type TableColumn,
  type TableRow,
} from '@bench/suites';
import { ratioSpread, roundRatios, type RatioSpread } from './ratio-spread.js';

/** One table of a suite as read from a run: its rows and columns, the article's figure and today's for each cell. */
export interface Grid {
  readonly table: SuiteTable;
  readonly rows: TableRow[];
  readonly columns: TableColumn[];
  readonly published: (row: TableRow, column: TableColumn) => PublishedCell;
  readonly measured: (row: TableRow, column: TableColumn) => number | string | 'failed' | undefined;
  /** The cell's rounds, for ratios with their spread. */
  readonly repeats: (row: TableRow, column: TableColumn) => CellResult[];
}

export function gridOf(suite: Suite, doc: RunDocument, published: PublishedTable, table: SuiteTable): Grid {
  return {
    table,
    rows: tableRows(published, table),
    columns: tableColumns(published, table),
    published: (row, column) => (row.extra ? null : publishedValue(published, row.label, column)),
    measured: (row, column) => measuredValue(doc, suite.definition, table, row, column),
    repeats: (row, column) => cellRepeats(doc, table, row, column),
  };
}

/** Tables wider than this many columns are drawn transposed (an ab block per row): their ratios are of rps alone. */
export const ROW_LAYOUT_MAX_COLUMNS = 8;
export const isTransposed = (grid: Grid) => grid.columns.length > ROW_LAYOUT_MAX_COLUMNS;

/** A ratio a suite's tables show: a row's cell divided by the reference row's, in one column. */
export interface RatioPair {
  readonly row: TableRow;
  readonly ref: TableRow;
  readonly column: TableColumn;
}

/**
 * The ratios a table shows: every row and column divided by the reference row; a transposed table's requests per
 * second alone, divided by the reference's stack, or by the first row measured when the reference has none today.
 */
export function ratioPairs(grid: Grid): RatioPair[] {
  const ref = grid.rows.find((r) => r.label === grid.table.reference);
  if (!ref) return [];
  if (!isTransposed(grid)) return grid.rows.flatMap((row) => grid.columns.map((column) => ({ row, ref, column })));
  const rps = grid.columns.find((c) => c.field === 'rps');
  const nowRef = rps && (ref.target ? ref : grid.rows.find((r) => typeof grid.measured(r, rps) === 'number'));
  return rps && nowRef ? grid.rows.map((row) => ({ row, ref: nowRef, column: rps })) : [];
}

/** The name a ratio is kept under between runs of a suite: its table, row and column. */
export const ratioKey = (grid: Grid, pair: RatioPair) => `${grid.table.published} / ${pair.row.label} / ${pair.column.label}`;

/** A ratio's figure and interval, over this run's rounds and the earlier runs of the suite here. */
export function pairSpread(doc: RunDocument, grid: Grid, pair: RatioPair): RatioSpread | undefined {
  const key = ratioKey(grid, pair);
  const earlier = (doc.suite?.earlierRuns ?? []).flatMap((run) => (run.ratios[key] ? [run.ratios[key]] : []));
  return ratioSpread(grid.repeats(pair.row, pair.column), grid.repeats(pair.ref, pair.column), pair.column.field, earlier);
}

/** Every ratio the suite's tables show, each round's value by its key: what a run keeps for the runs after it. */
export function suiteRatios(suite: Suite, doc: RunDocument): Record<string, number[]> {
  const ratios: Record<string, number[]> = {};
  for (const table of suite.definition.kind === 'https-clients' ? [] : suite.definition.tables) {
    const published = suite.published.tables.find((t) => t.id === table.published);
    if (!published || table.publishedOnly) continue;
    const grid = gridOf(suite, doc, published, table);
    for (const pair of ratioPairs(grid)) {
      if (pair.row === pair.ref) continue;
      const values = roundRatios(grid.repeats(pair.row, pair.column), grid.repeats(pair.ref, pair.column), pair.column.field);
      if (values.length > 0) ratios[ratioKey(grid, pair)] = values;
    }
  }
  return ratios;
}
