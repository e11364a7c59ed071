import { median, protocolWords, type CellResult, type ReporterFactory, type RunDocument } from '@bench/core';
import { formatBytes, formatNumber, markdownText } from './format.js';
import { thresholdLines } from './thresholds.js';
import { machineLines } from './machine-line.js';
import { writeFileAtomically } from './json.js';
import { spreadLines } from './repeat-spread.js';
import { sparkline } from './sparkline.js';
import { profileMarkdown } from './profile/profile-text.js';
import { soakLine } from './soak-line.js';
import { stepSummaries } from './step-rows.js';

const HEADER = ['target', 'c', 'rps', 'ms/req', 'p50 ms', 'p80 ms', 'p99 ms', 'failed', 'non-2xx', 'server CPU', 'server RSS'];

// A pipe inside a cell would break the table.
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Repeated runs of one cell (--repeat) as one row: medians, with the rps range. */
function groupRow(runs: readonly CellResult[]): string[] {
  const ok = runs.filter((r) => r.status === 'ok');
  const first = runs[0];
  if (!first) return [];
  if (runs.length === 1 || ok.length === 0) return row(first);
  const rps = ok.map((r) => r.rps);
  const mid = median(rps);
  const cpu = ok.flatMap((r) => (r.resources?.server ? [r.resources.server.cpuPercent] : []));
  const rss = ok.flatMap((r) => (r.resources?.server ? [r.resources.server.rssBytes] : []));
  const failedRuns = runs.length - ok.length;
  return [
    first.target,
    `${first.concurrency} (${ok.length} runs${failedRuns ? `, ${failedRuns} failed` : ''})`,
    `${formatNumber(mid, 2)} [${formatNumber(Math.min(...rps), 0)}-${formatNumber(Math.max(...rps), 0)}]`,
    mid > 0 ? formatNumber(1000 / mid, 3) : '-',
    formatNumber(median(ok.map((r) => r.latency.p50))),
    formatNumber(median(ok.map((r) => r.latency.p80))),
    formatNumber(median(ok.map((r) => r.latency.p99))),
    String(ok.reduce((sum, r) => sum + r.failed, 0)),
    String(ok.reduce((sum, r) => sum + r.non2xx, 0)),
    cpu.length ? `${formatNumber(median(cpu), 0)}%` : '-',
    rss.length ? formatBytes(Math.max(...rss)) : '-',
  ];
}

function groupByCell(results: readonly CellResult[]): CellResult[][] {
  const groups = new Map<string, CellResult[]>();
  for (const r of results) {
    const key = `${r.target}\u0000${r.concurrency}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()];
}

function row(r: CellResult): string[] {
  if (r.status === 'failed')
    return [r.target, String(r.concurrency), `failed: ${markdownText(r.error ?? 'unknown')}`, '', '', '', '', '', '', '', ''];
  const server = r.resources?.server;
  return [
    r.target,
    // a cell the run was killed in (read back from its journal) covers only its first seconds
    r.interrupted ? `${r.concurrency} (interrupted at ${r.interrupted.atSecond} s)` : String(r.concurrency),
    formatNumber(r.rps, 2),
    // article 004's "tpq": ms per request across all concurrent requests
    r.rps > 0 ? formatNumber(1000 / r.rps, 3) : '-',
    formatNumber(r.latency.p50),
    formatNumber(r.latency.p80),
    formatNumber(r.latency.p99),
    String(r.failed),
    String(r.non2xx),
    server ? `${formatNumber(server.cpuPercent, 0)}%` : '-',
    server ? formatBytes(server.rssBytes) : '-',
  ];
}

/** A workload's steps as rows under their cell: name and share, rate, percentiles, failures. */
function stepRows(runs: readonly CellResult[]): string[][] {
  return stepSummaries(runs).map((s) => [
    `↳ ${s.name} (${formatNumber(s.sharePercent, s.sharePercent < 1 ? 2 : 1)}%)`,
    '',
    formatNumber(s.rps, 2),
    '',
    formatNumber(s.p50),
    formatNumber(s.p80),
    formatNumber(s.p99),
    String(s.failed),
    String(s.non2xx),
    '',
    '',
  ]);
}

function table(rows: readonly string[][]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(HEADER), `|${HEADER.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map(line)].join('\n');
}

const cellName = (r: CellResult) => `${r.target} c=${r.concurrency}${r.repeat > 1 ? ` run ${r.repeat}` : ''}`;

// Proof the backend was hit: its own counter against the requests answered.
function describeBackend(r: CellResult): string {
  const counters = Object.entries(r.backend ?? {}).map(([service, b]) => {
    const perRequest = r.requests > 0 ? b.delta / r.requests : 0;
    const cached = perRequest < 0.99 ? ': fewer backend reads than requests, so answers were served from a cache' : '';
    return `${service} ${b.counter} +${b.delta} (${perRequest.toFixed(2)} per request${cached})`;
  });
  return `backend, ${cellName(r)}: ${counters.join(', ')} for ${r.requests} requests`;
}

// The table's latencies count from each request's intended send time; the uncorrected ones from its actual send.
function describeOpenLoop(r: CellResult): string {
  const u = r.latencyUncorrected;
  const rate = r.rate;
  if (!u || !rate) return '';
  return (
    `${cellName(r)}: open loop at ${formatNumber(rate.target)} rps (achieved ${formatNumber(rate.achieved)}); latency from the intended send ` +
    `p50 ${formatNumber(r.latency.p50)} / p99 ${formatNumber(r.latency.p99)} ms, uncorrected (from the actual send) p50 ${formatNumber(u.p50)} / p99 ${formatNumber(u.p99)} ms` +
    (r.lateness ? `; sent late by p50 ${formatNumber(r.lateness.p50)} / p99 ${formatNumber(r.lateness.p99)} ms` : '')
  );
}

function describeBound(r: CellResult): string {
  return r.bound.kind === 'duration' ? `${r.bound.value} s per cell` : `${r.bound.value} requests per cell`;
}

// rps second by second (measured run only, whole seconds), so a collapse shows in a CI log.
function rpsSparkline(r: CellResult): string {
  const seconds = (r.series ?? []).filter((p) => p.phase === 'measure' && p.seconds >= 0.5);
  if (seconds.length < 2) return '';
  const rps = seconds.map((p) => p.rps);
  return `rps per second ${sparkline(rps)} (min ${formatNumber(Math.min(...rps), 0)}, max ${formatNumber(Math.max(...rps), 0)})`;
}

// How long the cells warmed up: a fixed time, or until steady (the range over the cells, and how many hit the cap).
function describeWarmup(results: readonly CellResult[]): string {
  const warmups = results.flatMap((r) => (r.warmup ? [r.warmup] : []));
  if (warmups.length === 0 || warmups.every((w) => w.reason === 'fixed')) {
    const seconds = results[0]?.warmupSeconds ?? 0;
    return seconds > 0 ? `, ${seconds} s warm-up` : '';
  }
  const seconds = warmups.map((w) => w.seconds);
  const [low, high] = [Math.min(...seconds), Math.max(...seconds)];
  const capped = warmups.filter((w) => w.reason === 'cap').length;
  const range = low === high ? `${formatNumber(low, 1)} s` : `${formatNumber(low, 1)}-${formatNumber(high, 1)} s`;
  return `, warm-up until steady (${range}${capped ? `; ${capped} of ${warmups.length} cells reached --warmup-max first` : ''})`;
}

/** One table per scenario, in the spirit of article 004's tables, with what shaped the numbers. */
export function renderMarkdown(doc: RunDocument): string {
  const out: string[] = [];
  const scenarios = [...new Set(doc.results.map((r) => r.scenario))];
  for (const scenario of scenarios) {
    const results = doc.results.filter((r) => r.scenario === scenario);
    const first = results[0];
    out.push(`### ${scenario}`, '', table(groupByCell(results).flatMap((runs) => [groupRow(runs), ...stepRows(runs)])), '');
    if (first) {
      const warm = describeWarmup(results);
      const repeated = results.some((r) => r.repeat > 1) ? ' Repeated cells show medians, with the rps range in brackets.' : '';
      out.push(
        `${first.protocol ? `${protocolWords[first.protocol]}, ` : ''}${first.keepAlive ? 'keep-alive' : 'a new connection per request (no keep-alive)'}, ${describeBound(first)}${warm}.${repeated} CPU is a percent of one core, as top gives it (200% is two cores busy).`,
      );
    }
    for (const r of results.filter((r) => r.backend && r.status === 'ok')) out.push(`- ${describeBackend(r)}`);
    if (first?.workload && results.some((r) => r.steps))
      out.push(`- workload: ${first.workload}; ↳ rows are its steps (share of the cell's answers)`);
    for (const r of results.filter((r) => r.rate && r.latencyUncorrected)) out.push(`- ${describeOpenLoop(r)}`);
    for (const r of results) if (r.limit) out.push(`- ${cellName(r)}: ${markdownText(r.limit.line)}`);
    for (const r of results) {
      const line = rpsSparkline(r);
      if (line) out.push(`- ${cellName(r)}: ${line}`);
    }
    for (const r of results) {
      const line = soakLine(r);
      if (line) out.push(`- ${cellName(r)}: ${line}`);
    }
    for (const r of results) for (const note of r.notes) out.push(`- ${cellName(r)}: ${markdownText(note)}`);
    for (const line of spreadLines(results)) out.push(`- ${line}`);
    out.push('', ...profileMarkdown(results));
  }
  const thresholds = thresholdLines(doc);
  if (thresholds.length > 0) out.push('### thresholds', '', thresholds[0] ?? '', '', ...thresholds.slice(1).map((line) => `- ${line}`), '');
  const engines = [...new Set(doc.results.flatMap((r) => (r.engine ? [`${r.engine.name} ${r.engine.version}`] : [])))];
  const generator = engines.length > 0 ? `The load generator (${engines.join(', ')})` : 'The load generator';
  out.push(...machineLines(doc, generator));
  const cut = doc.results.find((r) => r.interrupted);
  if (cut)
    out.push(
      `The run did not complete: ${doc.results.length - 1} finished cell(s) shown, and ${cellName(cut)}, where it stopped, up to its second ${cut.interrupted?.atSecond} (read from the run's journal).`,
    );
  else if (!doc.complete) out.push(`The run did not complete: ${doc.results.length} finished cell(s) shown.`);
  return `${out.join('\n')}\n`;
}

/** The default reporter: markdown tables at the end of the run (progress goes to stderr meanwhile). */
export const markdownReporter: ReporterFactory = (context) => ({
  name: 'markdown',
  async onRunEnd(doc) {
    if (doc.results.length === 0) return;
    const text = renderMarkdown(doc);
    if (!context.outFile) return context.stdout(text);
    await writeFileAtomically(context.outFile, text);
  },
});
