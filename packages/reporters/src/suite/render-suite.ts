import type { CellResult, RunDocument } from '@bench/core';
import {
  cellRepeats,
  publishedNumber,
  type PublishedCell,
  type PublishedTable,
  type Suite,
  type SuiteTable,
  type TableColumn,
  type TableRow,
} from '@bench/suites';
import { renderAbText } from '../ab.js';
import { renderHttpsClientTables } from './render-https-clients.js';
import { generatorSummary } from './generator-summary.js';
import { measuredCauses, movedFromArticle, showRatio } from './ratio-spread.js';
import { gridOf, isTransposed, pairSpread, ratioPairs, type Grid } from './suite-grid.js';

const fmt = (value: number, digits = 2) => value.toLocaleString('en-US', { maximumFractionDigits: digits });

function showPublished(value: PublishedCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return fmt(value, 4);
  if (Array.isArray(value)) return value.map((v) => fmt(v, 4)).join('/');
  return value;
}

function showMeasured(value: number | string | 'failed' | undefined): string {
  if (value === undefined) return '-';
  if (typeof value === 'number') return fmt(value, value >= 100 ? 0 : 2);
  return value;
}

const ratioOf = (value: number | undefined, reference: number | undefined) =>
  value === undefined || reference === undefined || reference === 0 ? undefined : value / reference;

/** One line for a ratio far from the article's: then, now, and the measured causes of both rows. */
function movedLine(grid: Grid, row: TableRow, ref: TableRow, column: TableColumn, then: number, now: number): string {
  const factor = now > then ? now / then : then / now;
  const causes = measuredCauses([
    { label: row.target || row.label, repeats: grid.repeats(row, column) },
    { label: ref.target || ref.label, repeats: grid.repeats(ref, column) },
  ]);
  const where = grid.columns.length > 1 ? ` (${column.label})` : '';
  return `- ${row.label}${where}: ${then.toFixed(2)} then, ${now.toFixed(2)} now (${now > then ? 'up' : 'down'} ${factor.toFixed(1)}x); ${causes.join('; ') || 'nothing measured explains it'}`;
}

const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;

/** Why a row has no figures today: the target was not run here, or never can be. */
function todayCell(row: TableRow, skipped: ReadonlyMap<string, string>): string {
  if (row.target === undefined) return 'no counterpart here';
  if (row.target === '') return '';
  const reason = skipped.get(row.target);
  return reason ? `${row.target} (not run: ${reason})` : row.target;
}

/** A column that names its own target (the article's variants side by side) says which, and then the rows' target cell stays empty. */
const columnTarget = (table: SuiteTable, column: TableColumn) => table.columns[column.article]?.target;
function labelOf(table: SuiteTable, column: TableColumn, skipped: ReadonlyMap<string, string>): string {
  const target = columnTarget(table, column);
  if (!target) return column.label;
  const reason = skipped.get(target);
  return `${column.label} (${target}${reason ? `, not run: ${reason}` : ''})`;
}

// The article's layout: its rows and columns, each cell "then / now".
function renderRows(doc: RunDocument, grid: Grid, published: PublishedTable, skipped: ReadonlyMap<string, string>, year: string): string[] {
  const { table } = grid;
  // columns that name their own target leave the rows no target to show
  const today = grid.columns.some((c) => columnTarget(table, c)) ? [] : ['today'];
  const out = [
    line([published.rowHeader, ...today, ...grid.columns.map((c) => labelOf(table, c, skipped))]),
    line(['---', ...today.map(() => '---'), ...grid.columns.map(() => '---:')]),
  ];
  for (const row of grid.rows) {
    // the article's rows read "then / now"; today's extra rows have only "now"
    const show = (c: TableColumn) =>
      row.extra
        ? showMeasured(grid.measured(row, c))
        : `${showPublished(grid.published(row, c)) || '·'} / ${showMeasured(grid.measured(row, c))}`;
    out.push(line([row.label, ...today.map(() => todayCell(row, skipped)), ...grid.columns.map(show)]));
  }
  const pairs = ratioPairs(grid);
  if (pairs.length === 0) return out;
  out.push(
    '',
    `Each row divided by ${table.reference}, ${year} / now (now: ${RATIO_WORDS}):`,
    '',
    line([published.rowHeader, ...grid.columns.map((c) => c.label)]),
    line(['---', ...grid.columns.map(() => '---:')]),
  );
  const moved: string[] = [];
  for (const row of grid.rows) {
    const cells = pairs.filter((pair) => pair.row === row);
    out.push(
      line([
        row.label,
        ...cells.map((pair) => {
          const { ref, column: c } = pair;
          const thenValue = ratioOf(publishedNumber(grid.published(row, c)), publishedNumber(grid.published(ref, c)));
          const spread = pairSpread(doc, grid, pair);
          if (!row.extra && row !== ref && movedFromArticle(thenValue, spread?.center))
            moved.push(movedLine(grid, row, ref, c, thenValue!, spread!.center));
          const now = showRatio(spread) || '-';
          return row.extra ? now : `${thenValue === undefined ? '·' : thenValue.toFixed(2)} / ${now}`;
        }),
      ]),
    );
  }
  out.push('', intervalsCover(doc));
  if (moved.length > 0) out.push('', `Ratios that moved more than 2x from the article's, with what bench measured:`, '', ...moved);
  return out;
}

// Wide record tables (an ab block per row): one row per figure, one column per article row, then and now side by side.
function renderTransposed(doc: RunDocument, grid: Grid, skipped: ReadonlyMap<string, string>, year: string): string[] {
  const { table } = grid;
  const heads = grid.rows.flatMap((row) =>
    row.extra ? [`${row.label}`] : row.target ? [`${row.label} ${year}`, `${row.label} now`] : [`${row.label} ${year}`],
  );
  const out = [line(['', ...heads]), line(['---', ...heads.map(() => '---:')])];
  if (!grid.columns.some((c) => columnTarget(table, c))) {
    out.push(
      line([
        'today',
        ...grid.rows.flatMap((row) =>
          row.extra ? [todayCell(row, skipped)] : row.target ? ['', todayCell(row, skipped)] : ['no counterpart here'],
        ),
      ]),
    );
  }
  for (const column of grid.columns) {
    out.push(
      line([
        labelOf(table, column, skipped),
        ...grid.rows.flatMap((row) => {
          const now = showMeasured(grid.measured(row, column));
          if (row.extra) return [now];
          const then = showPublished(grid.published(row, column));
          return row.target ? [then, now] : [then];
        }),
      ]),
    );
  }
  const ref = grid.rows.find((r) => r.label === table.reference);
  const rps = grid.columns.find((c) => c.field === 'rps');
  if (ref && rps) {
    // the article's ratios against its reference row, today's against today's (the reference's stack, or the first row measured)
    const thenRef = publishedNumber(grid.published(ref, rps));
    const pairs = ratioPairs(grid);
    const nowRefRow = pairs[0]?.ref;
    out.push('', `Requests per second divided by ${table.reference} (then) and by ${nowRefRow?.label ?? '-'} (now: ${RATIO_WORDS}):`);
    const moved: string[] = [];
    for (const row of grid.rows) {
      const thenValue = row.extra ? undefined : ratioOf(publishedNumber(grid.published(row, rps)), thenRef);
      const pair = pairs.find((p) => p.row === row);
      const spread = pair ? pairSpread(doc, grid, pair) : undefined;
      const then = thenValue === undefined ? '' : thenValue.toFixed(2);
      const now = showRatio(spread);
      out.push(`- ${row.label}: ${[then ? `${then} then` : '', now ? `${now} now` : ''].filter(Boolean).join(', ') || 'not measured'}`);
      if (nowRefRow === ref && row !== ref && movedFromArticle(thenValue, spread?.center))
        moved.push(movedLine(grid, row, ref, rps, thenValue!, spread!.center));
    }
    if (pairs.length > 0) out.push('', intervalsCover(doc));
    if (moved.length > 0) out.push('', `Ratios that moved more than 2x from the article's, with what bench measured:`, '', ...moved);
  }
  return out;
}

const RATIO_WORDS = "the geometric mean of this run's per-round ratios [its 95% interval]";

/** What the ratios' intervals cover: this run's rounds, and the earlier runs of the suite on this machine when there are some. */
function intervalsCover(doc: RunDocument): string {
  const rounds = Math.max(0, ...doc.results.map((r) => r.repeat));
  const earlier = doc.suite?.earlierRuns ?? [];
  const these = `the spread between this run's ${rounds} round${rounds === 1 ? '' : 's'} (each on freshly started stacks)`;
  if (earlier.length === 0)
    return (
      `The intervals cover ${these}, not yet between runs: no earlier run of this suite at this scale is kept on this ` +
      "machine (bench keeps each run in its cache, and the next run's intervals cover the spread between runs too)."
    );
  const since = earlier[0]!.finishedAt.slice(0, 16).replace('T', ' ');
  return (
    `The intervals cover ${these}, widened to the spread between ${earlier.length + 1} runs of this suite at this scale ` +
    `on this machine (this one and ${earlier.length} kept since ${since} UTC).`
  );
}

/** Every table of the suite: the article's layout with its figures beside today's, and the ratios. */
export function renderSuite(suite: Suite, doc: RunDocument, skipped: ReadonlyMap<string, string> = new Map()): string {
  const { definition, published } = suite;
  const year = /\d{4}/.exec(definition.title)?.[0] ?? 'then';
  const scale = doc.suite?.scale ?? 1;
  const out = [
    `## ${definition.name}: ${published.title} (${published.publication})`,
    '',
    `${published.setup}`,
    '',
    `Today: ${definition.description}${scale !== 1 ? ` **Scaled by ${scale}** (requests, durations and concurrency), so absolute figures are not the article's shape; the ratios still compare.` : ''} Cells read ${year} / now; a · is a blank in the article, a - is not measured here.`,
  ];
  const shapes = doc.suite?.shapes ?? [];
  if (shapes.length > 0) out.push('', 'Load shape of each run:', '', ...shapes.map((s) => `- ${s.line}`));
  const warmups = doc.results.flatMap((r) => (r.warmup ? [r.warmup] : []));
  if (warmups.length > 0) out.push('', warmupSummary(warmups));
  if (definition.kind === 'https-clients') {
    const tables = definition.tables.flatMap((t) => published.tables.filter((p) => p.id === t.published));
    out.push(...renderHttpsClientTables(definition, tables, doc));
  }
  for (const table of definition.kind === 'https-clients' ? [] : definition.tables) {
    const pub = published.tables.find((t) => t.id === table.published);
    if (!pub) continue;
    out.push('', `### ${pub.title}${pub.unit ? ` (${pub.unit})` : ''}`, '');
    if (table.publishedOnly) {
      out.push(
        `Published only: ${table.publishedOnly}`,
        '',
        line([pub.rowHeader, ...pub.columns]),
        line(['---', ...pub.columns.map(() => '---:')]),
      );
      for (const row of pub.rows) out.push(line([row.label, ...row.values.map((v) => showPublished(v as PublishedCell))]));
    } else {
      const grid = gridOf(suite, doc, pub, table);
      out.push(...(isTransposed(grid) ? renderTransposed(doc, grid, skipped, year) : renderRows(doc, grid, pub, skipped, year)));
      if (table.abBlocks) out.push(...abBlocks(doc, table, grid));
    }
    for (const note of [...pub.notes, ...table.notes]) out.push('', `- ${note}`);
  }
  // a note of one machine's is left out of a run whose stacks had a host of their own
  for (const note of [...definition.notes, ...(doc.hosts ? [] : definition.oneMachineNotes)]) out.push('', `Note: ${note}`);
  out.push(...generatorSummary(doc));
  return `${out.join('\n')}\n`;
}

/** How long the cells' warm-ups took until steady: "warm-up until steady: 1-4 s (11 steady, 1 at the cap)". */
function warmupSummary(warmups: ReadonlyArray<NonNullable<CellResult['warmup']>>): string {
  const seconds = warmups.map((w) => w.seconds);
  const [low, high] = [Math.min(...seconds), Math.max(...seconds)];
  const count = (reason: string) => warmups.filter((w) => w.reason === reason).length;
  const reasons = [
    count('steady') ? `${count('steady')} steady` : '',
    count('cap') ? `${count('cap')} stopped at the cap, not steady` : '',
    count('fixed') ? `${count('fixed')} fixed` : '',
  ].filter(Boolean);
  return `Warm-up before each measured run, until two seconds agreed within 5% on throughput: ${low === high ? fmt(low, 1) : `${fmt(low, 1)}-${fmt(high, 1)}`} s (${reasons.join(', ')}).`;
}

// ab's own report for each row measured today (the articles quoted ab's output whole).
function abBlocks(doc: RunDocument, table: SuiteTable, grid: Grid): string[] {
  const out: string[] = [];
  for (const row of grid.rows) {
    const column = grid.columns[0];
    if (!column) break;
    const repeats: CellResult[] = cellRepeats(doc, table, row, column);
    const first = repeats.find((r) => r.status === 'ok');
    if (first) out.push('', `ab's report for ${row.label} today:`, '', '```', renderAbText(first, doc).trimEnd(), '```');
  }
  return out;
}
