import type { BrokenHistoryLimit, History, HistoryChange, HistoryPoint, HistorySeries, SeriesChanges } from '@bench/history';
import { sparkline } from '../sparkline.js';

const shortCommit = (point: HistoryPoint) => point.git.commit?.slice(0, 7) ?? '-';
const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (value: number) => number(value, value < 10 ? 2 : 1);
const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** "abc1234..def5678": the commits either side of a change. */
export function commitRange(change: Pick<HistoryChange, 'before' | 'after'>): string {
  return `${shortCommit(change.before)}..${shortCommit(change.after)}`;
}

/** "p = 3.2e-5" style, readable whatever the size. */
export function formatPValue(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/** "2026-01-31 12:00" (UTC): when the commit was made, else when the run started. */
export function pointTime(point: HistoryPoint): string {
  const iso = point.git.commitTime ?? point.runStartedAt;
  return Number.isNaN(Date.parse(iso)) ? iso : new Date(iso).toISOString().slice(0, 16).replace('T', ' ');
}

const signed = (percent: number) => `${percent > 0 ? '+' : ''}${percent.toFixed(1)}%`;

function machineLine(series: HistorySeries): string {
  const m = series.machine;
  return `${m.hostname}, ${m.cpuModel}, ${m.cores} cores, ${number(m.memoryBytes / 2 ** 30, 1)} GiB`;
}

/** "bound=duration=10, keepAlive=true": the options that key a series. */
export function optionsLine(series: HistorySeries): string {
  return Object.entries(series.key.options)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

/** Lines that say which lines of the file were skipped, and why. */
export function damagedLinesNote(history: History): string {
  if (history.damaged.length === 0) return '';
  return history.damaged.map((d) => `bench: ${history.file} line ${d.line} skipped: ${d.reason}\n`).join('');
}

/** `bench history show`: the last `last` points of each series, a sparkline of rps, a table with the change points marked. */
export function renderHistoryShow(series: readonly HistorySeries[], found: readonly SeriesChanges[], last: number): string {
  if (series.length === 0) return 'The history holds no successful measurement yet.\n';
  const out: string[] = [];
  for (const s of series) {
    const points = s.points.slice(-last);
    const offset = s.points.length - points.length;
    const changes = found.filter((f) => f.series === s).flatMap((f) => f.changes);
    out.push(`### ${s.label}`, '');
    out.push(`${machineLine(s)}; ${optionsLine(s)}`, '');
    out.push(
      `rps ${sparkline(
        points.map((p) => p.metrics.rps),
        { scale: 'range' },
      )} (last ${points.length} of ${s.points.length} runs)`,
      '',
    );
    out.push(
      '| # | commit | branch | commit time (UTC) | rps | p50 ms | p99 ms | failed | change |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    points.forEach((p, i) => {
      const index = offset + i;
      const here = changes
        .filter((c) => c.index === index)
        .map((c) => `${c.metric} ${signed(c.changePercent)} (p ${formatPValue(c.pValue)})`)
        .join('; ');
      out.push(
        `| ${index + 1} | ${shortCommit(p)} | ${escapeCell(p.git.branch ?? '-')} | ${pointTime(p)} | ${number(p.metrics.rps)} | ${ms(p.metrics.p50)} | ${ms(p.metrics.p99)} | ${number(p.metrics.failed)} | ${here ? `◆ ${here}` : ''} |`,
      );
    });
    out.push('');
  }
  return out.join('\n');
}

/** `bench history check`: every change point found, and the limits broken by the newest ones. */
export function renderHistoryCheck(
  series: readonly HistorySeries[],
  found: readonly SeriesChanges[],
  broken: readonly BrokenHistoryLimit[],
): string {
  const rows = found.flatMap((f) => f.changes.map((c) => ({ f, c })));
  const out = [`## Change points`, '', `${series.length} series, ${series.reduce((n, s) => n + s.points.length, 0)} runs.`, ''];
  const short = series.filter((s) => s.points.length < 6);
  if (short.length > 0)
    out.push(
      `Too few runs to find a change yet (a change point needs 3 runs on each side): ${short.map((s) => `${s.label} (${s.points.length})`).join(', ')}.`,
      '',
    );
  if (rows.length === 0) out.push('No change point found.', '');
  else {
    out.push('| series | metric | commits | before | after | change | p-value | |', '|---|---|---|---|---|---|---|---|');
    for (const { f, c } of rows) {
      const fmt = c.metric === 'rps' ? number : ms;
      out.push(
        `| ${escapeCell(f.series.label)} | ${c.metric} | ${commitRange(c)} | ${fmt(c.meanBefore)} | ${fmt(c.meanAfter)} | ${signed(c.changePercent)} | ${formatPValue(c.pValue)} | ${c.regression ? 'regression' : 'improvement'} |`,
      );
    }
    out.push('');
  }
  for (const b of broken)
    out.push(
      `**${b.limit} broken**: ${b.series.label} ${b.change.metric} ${signed(b.change.changePercent)} between ${commitRange(b.change)} (p ${formatPValue(b.change.pValue)}).`,
    );
  if (broken.length > 0) out.push('');
  return out.join('\n');
}
