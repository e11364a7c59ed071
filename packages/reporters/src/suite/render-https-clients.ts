import { mean, type RunDocument } from '@bench/core';
import type { PublishedCell, PublishedTable, SuiteDefinition } from '@bench/suites';

type Timing = NonNullable<RunDocument['clientTimings']>[number];

const four = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(4));
const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const shown = (value: PublishedCell | undefined) =>
  value === null || value === undefined ? '·' : typeof value === 'number' ? String(value) : String(value);

/**
 * Article 002's tables (M1..M5, MW, AzsPS, AzsPP, FzvM per n, and seconds per request) with its
 * figures beside today's, computed as the article computed them: MW the mean of the runs, AzsPS
 * and AzsPP the distance to the fastest client, FzvM the factor to the previous n.
 */
export function renderHttpsClientTables(definition: SuiteDefinition, tables: readonly PublishedTable[], doc: RunDocument): string[] {
  const timings = doc.clientTimings ?? [];
  const ns = [...new Set(timings.map((t) => t.n))].sort((a, b) => a - b);
  const clientOf = definition.clients ?? {};
  const mw = (client: string, n: number | undefined) => mean(timings.find((t: Timing) => t.client === client && t.n === n)?.seconds ?? []);
  const out: string[] = [];
  for (const table of tables) {
    const perRequest = table.id === 'per-request';
    const tableIndex = ['n10', 'n50', 'n100'].indexOf(table.id);
    const n = perRequest ? ns.at(-1) : ns[tableIndex];
    const rows = [
      ...table.rows.map((r) => r.label),
      ...Object.keys(clientOf).filter((label) => !table.rows.some((r) => r.label === label)),
    ];
    const measured = Object.values(clientOf)
      .map((c) => mw(c, n))
      .filter((v) => !Number.isNaN(v));
    const fastest = measured.length ? Math.min(...measured) : NaN;
    const nowCells = (client: string | undefined): string[] => {
      if (!client || n === undefined) return table.columns.map(() => '-');
      if (perRequest) return [four(mw(client, n) / n)];
      const runs = timings.find((t) => t.client === client && t.n === n)?.seconds ?? [];
      const value = mw(client, n);
      const previous = tableIndex > 0 ? mw(client, ns[tableIndex - 1]) : NaN;
      return [
        ...table.columns.slice(0, 5).map((_, i) => four(runs[i])),
        four(value),
        four(value - fastest),
        Number.isNaN(value) ? '-' : `${Math.round((value / fastest - 1) * 100)}`,
        tableIndex > 0 ? four(value / previous) : '-',
      ];
    };
    out.push(
      '',
      `### ${table.title}${n !== undefined && !perRequest && n !== [10, 50, 100][tableIndex] ? ` (today: ${n} requests, scaled)` : ''} (${table.unit ?? 's'})`,
      '',
    );
    out.push(line(['client', 'today', ...table.columns]), line(['---', '---', ...table.columns.map(() => '---:')]));
    for (const label of rows) {
      const client = clientOf[label];
      const published = table.rows.find((r) => r.label === label);
      const now = nowCells(client);
      const version = client ? timings.find((t) => t.client === client)?.version : undefined;
      out.push(
        line([
          label,
          client ? `${client}${version ? ` ${version}` : ''}` : 'no counterpart here',
          ...table.columns.map((_, i) => (published ? `${shown(published.values[i] as PublishedCell)} / ${now[i]}` : (now[i] ?? '-'))),
        ]),
      );
    }
    // each row's mean against Go's, then and now
    const mwColumn = perRequest ? 0 : 5;
    const ref = table.rows.find((r) => r.label === 'Go');
    const refNow = perRequest ? mw('go', n) / (n ?? 1) : mw('go', n);
    out.push('', `${perRequest ? 's/request' : 'MW'} divided by Go's, then / now:`);
    for (const label of rows) {
      const published = table.rows.find((r) => r.label === label)?.values[mwColumn];
      const then =
        typeof published === 'number' && typeof ref?.values[mwColumn] === 'number' ? (published / ref.values[mwColumn]).toFixed(2) : '·';
      const client = clientOf[label];
      const nowValue = client ? (perRequest ? mw(client, n) / (n ?? 1) : mw(client, n)) : NaN;
      out.push(`- ${label}: ${then} / ${Number.isNaN(nowValue) || Number.isNaN(refNow) ? '-' : (nowValue / refNow).toFixed(2)}`);
    }
    for (const note of table.notes) out.push('', `- ${note}`);
  }
  return out;
}
