import type { CellResult, RunDocument } from '@bench/core';
import { techempowerEntry, type Suite, type TechempowerShape } from '@bench/suites';
import { generatorSummary } from './generator-summary.js';

type Test = TechempowerShape['tests'][number];

const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });
const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;

/** A test's levels as measured: each column's label and how to find its cells (a query type's value is in its scenario's name). */
export function columnsOf(test: Test, cells: readonly CellResult[]): Array<{ label: string; scenario: string; concurrency: number }> {
  const measured = cells.filter((r) => r.scenario === test.scenario || r.scenario.startsWith(`${test.scenario}?`));
  const seen = new Map<string, { label: string; scenario: string; concurrency: number }>();
  for (const r of measured) {
    const value = /=(\d+)$/.exec(r.scenario)?.[1];
    const key = `${r.scenario} ${r.concurrency}`;
    if (!seen.has(key)) seen.set(key, { label: value ?? fmt(r.concurrency), scenario: r.scenario, concurrency: r.concurrency });
  }
  return [...seen.values()].sort((a, b) => Number(a.label.replace(/,/g, '')) - Number(b.label.replace(/,/g, '')));
}

/** What a test's columns count: connections, or the parameter's value at its one concurrency. */
function levelWords(test: Test, columns: ReadonlyArray<{ concurrency: number }>): string {
  const at = columns[0]?.concurrency;
  if (test.values)
    return `${test.type === 'cached-queries' ? 'rows from the cache' : 'queries'} per request, at ${at === undefined ? '?' : fmt(at)} connections`;
  return `connections${test.pipelining ? `, ${test.pipelining} requests in flight on each` : ''}`;
}

/**
 * A row's score as TFB scores it: json, plaintext, db and fortunes by their best level (the most requests a second);
 * queries, updates and cached queries by the highest query count (the last level), whatever the others did.
 */
export function tfbScore(
  test: Pick<Test, 'values'>,
  cells: ReadonlyArray<{ label: string; cell: CellResult | undefined }>,
): { label: string; cell: CellResult } | undefined {
  if (test.values) {
    const last = cells.at(-1);
    return last?.cell?.status === 'ok' ? { label: last.label, cell: last.cell } : undefined;
  }
  let top: { label: string; cell: CellResult } | undefined;
  for (const { label, cell } of cells) if (cell?.status === 'ok' && (!top || cell.rps > top.cell.rps)) top = { label, cell };
  return top;
}

/** One test: requests per second at each level per stack, its best level and latency there, and what bounded each cell. */
function renderTest(test: Test, doc: RunDocument, shape: TechempowerShape): string[] {
  const columns = columnsOf(test, doc.results);
  const stacks = Object.keys(shape.entries).filter((target) => doc.results.some((r) => r.target === target));
  const out = ['', `### ${test.title} (${test.type}: ${test.scenario})`, ''];
  if (columns.length === 0) return [...out, 'Not measured.'];
  const cellOf = (target: string, column: (typeof columns)[number]) =>
    doc.results.find((r) => r.target === target && r.scenario === column.scenario && r.concurrency === column.concurrency);
  const scoredBy = test.values ? `the highest ${test.type === 'cached-queries' ? 'row' : 'query'} count` : 'the best level';
  out.push(
    `Requests per second at each level (${levelWords(test, columns)}); TFB's score (${scoredBy}), and latency there (mean / p99 / max, ms):`,
    '',
  );
  out.push(line(['stack', 'TFB entry', ...columns.map((c) => c.label), 'score', 'latency there']));
  out.push(line(['---', '---', ...columns.map(() => '---:'), '---:', '---:']));
  const failures: string[] = [];
  for (const target of stacks) {
    const cells = columns.map((column) => ({ label: column.label, cell: cellOf(target, column) }));
    const top = tfbScore(test, cells);
    const shown = cells.map(({ cell }) => {
      if (!cell) return '-';
      if (cell.status !== 'ok') {
        failures.push(`${target}: ${cell.error ?? 'failed'}`);
        return 'failed';
      }
      return fmt(cell.rps);
    });
    const latency = top ? `${fmt(top.cell.latency.mean, 2)} / ${fmt(top.cell.latency.p99, 2)} / ${fmt(top.cell.latency.max, 1)}` : '-';
    out.push(
      line([
        target,
        techempowerEntry(shape, target, doc.options.db) ?? '',
        ...shown,
        top ? `${fmt(top.cell.rps)} at ${top.label}` : '-',
        latency,
      ]),
    );
  }
  out.push('', 'What bounded each cell:', '');
  out.push(line(['stack', ...columns.map((c) => c.label)]));
  out.push(line(['---', ...columns.map(() => '---')]));
  for (const target of stacks)
    out.push(
      line([target, ...columns.map((c) => cellOf(target, c)).map((cell) => (cell?.status === 'ok' ? (cell.limit?.by ?? '?') : '-'))]),
    );
  const lines = new Set(
    stacks.flatMap((target) =>
      columns.flatMap((c) => (cellOf(target, c)?.limit?.line ? [`${target} at ${c.label}: ${cellOf(target, c)!.limit!.line}`] : [])),
    ),
  );
  if (lines.size > 0)
    out.push('', "<details><summary>each cell's bound in words</summary>", '', ...[...lines].map((l) => `- ${l}`), '', '</details>');
  for (const failure of new Set(failures)) out.push('', `- failed: ${failure}`);
  return out;
}

/** `bench suite techempower`'s tables: per test type, TFB's table of every stack at every level, and what bounded each cell. */
export function renderTechempower(suite: Suite, doc: RunDocument): string {
  const { definition, published } = suite;
  const shape = definition.techempower;
  if (!shape) return '';
  const scale = doc.suite?.scale ?? 1;
  const out = [
    `## ${definition.name}: ${definition.title}`,
    '',
    `${definition.description}${scale !== 1 ? ` **Scaled by ${scale}** (times, and concurrency as every suite scales it), so the levels are not TFB's.` : ''}`,
    '',
    published.setup,
  ];
  for (const shapeLine of doc.suite?.shapes ?? []) out.push('', `Load shape: ${shapeLine.line}.`);
  for (const note of doc.suite?.notes ?? []) out.push('', `Note: ${note}.`);
  const skipped = Object.entries(doc.suite?.skipped ?? {});
  if (skipped.length > 0) out.push('', `Not run here: ${skipped.map(([target, why]) => `${target} (${why})`).join('; ')}.`);
  for (const test of shape.tests) out.push(...renderTest(test, doc, shape));
  // a note of one machine's is left out of a run whose stacks had a host of their own
  for (const note of [...definition.notes, ...(doc.hosts ? [] : definition.oneMachineNotes)]) out.push('', `Note: ${note}`);
  out.push(...generatorSummary(doc));
  return `${out.join('\n')}\n`;
}
