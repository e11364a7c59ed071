import type { CellResult, ReporterFactory, RunDocument } from '@bench/core';
import { formatBytes, formatNumber } from './format.js';

const HEADER = ['target', 'c', 'rps', 'ms/req', 'p50 ms', 'p80 ms', 'p99 ms', 'failed', 'non-2xx', 'server CPU', 'server RSS'];

// A pipe inside a cell would break the table.
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function row(r: CellResult): string[] {
  if (r.status === 'failed') return [r.target, String(r.concurrency), `failed: ${r.error ?? 'unknown'}`, '', '', '', '', '', '', '', ''];
  const server = r.resources?.server;
  return [
    r.target,
    String(r.concurrency),
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

function table(rows: readonly string[][]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(HEADER), `|${HEADER.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map(line)].join('\n');
}

// Proof the backend was hit: its own counter against the requests answered.
function describeBackend(r: CellResult): string {
  const counters = Object.entries(r.backend ?? {}).map(([service, b]) => {
    const perRequest = r.requests > 0 ? b.delta / r.requests : 0;
    const cached = perRequest < 0.99 ? ': fewer backend reads than requests, so answers were served from a cache' : '';
    return `${service} ${b.counter} +${b.delta} (${perRequest.toFixed(2)} per request${cached})`;
  });
  return `backend, ${r.target} c=${r.concurrency}: ${counters.join(', ')} for ${r.requests} requests`;
}

function describeBound(r: CellResult): string {
  return r.bound.kind === 'duration' ? `${r.bound.value} s per cell` : `${r.bound.value} requests per cell`;
}

/** One table per scenario, in the spirit of article 004's tables, with what shaped the numbers. */
export function renderMarkdown(doc: RunDocument): string {
  const out: string[] = [];
  const scenarios = [...new Set(doc.results.map((r) => r.scenario))];
  for (const scenario of scenarios) {
    const results = doc.results.filter((r) => r.scenario === scenario);
    const first = results[0];
    out.push(`### ${scenario}`, '', table(results.map(row)), '');
    if (first) {
      const warm = first.warmupSeconds > 0 ? `, ${first.warmupSeconds} s warm-up` : '';
      out.push(`${first.keepAlive ? 'keep-alive' : 'a new connection per request (no keep-alive)'}, ${describeBound(first)}${warm}.`);
    }
    for (const r of results.filter((r) => r.backend && r.status === 'ok')) out.push(`- ${describeBackend(r)}`);
    for (const r of results) for (const note of r.notes) out.push(`- ${r.target} c=${r.concurrency}: ${note}`);
    out.push('');
  }
  const m = doc.machine;
  out.push(
    `Machine: ${m.cpus} x ${m.cpuModel}, ${formatBytes(m.memoryBytes)}, ${m.platform} ${m.release}, Node ${m.node}.` +
      (m.sharedHost ? ' The load generator (autocannon) and the servers share these cores.' : ''),
  );
  if (!doc.complete) out.push(`The run did not complete: ${doc.results.length} finished cell(s) shown.`);
  return `${out.join('\n')}\n`;
}

/** The default reporter: markdown tables at the end of the run (progress goes to stderr meanwhile). */
export const markdownReporter: ReporterFactory = (context) => ({
  name: 'markdown',
  async onRunEnd(doc) {
    if (doc.results.length === 0) return;
    const text = renderMarkdown(doc);
    if (!context.outFile) return context.stdout(text);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(context.outFile, text);
  },
});
