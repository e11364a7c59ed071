import type { CellResult, ReporterFactory, RunDocument } from '@bench/core';
import { abLine, formatNumber, padFixed, padInt } from './format.js';
import { machineLines } from './machine-line.js';
import { thresholdLines } from './thresholds.js';
import { writeFileAtomically } from './json.js';
import { profileAbLines } from './profile/profile-text.js';

const NOT_MEASURED = 'n/a';

// ab's "Connection Times" row: label, then %5ld %4ld %5.1f %6ld %7ld.
function timesRow(label: string, cells: readonly [string, string, string, string, string]): string {
  const [min, mean, sd, median, max] = cells;
  return `${label.padEnd(12)}${min.padStart(5)} ${mean.padStart(4)} ${sd.padStart(5)} ${median.padStart(6)} ${max.padStart(7)}`;
}

type Timing = NonNullable<CellResult['connectionTimes']>['connect'];
const timing = (t: Timing): [string, string, string, string, string] => [
  padInt(t.min, 5),
  padInt(t.mean, 4),
  padFixed(t.sd, 5, 1),
  padInt(t.median, 6),
  padInt(t.max, 7),
];
const notMeasured: [string, string, string, string, string] = [NOT_MEASURED, NOT_MEASURED, NOT_MEASURED, NOT_MEASURED, NOT_MEASURED];

// ab's own sanity check of each measured row: mean and median (whole ms) more than one or two sd apart.
function reliabilityWarning(what: string, mean: number, median: number, sd: number): string[] {
  const apart = Math.abs(Math.round(mean) - Math.round(median));
  if (apart > 2 * sd) {
    return [
      `ERROR: The median and mean for ${what} are more than twice the standard`,
      '       deviation apart. These results are NOT reliable.',
    ];
  }
  if (apart > sd)
    return [
      `WARNING: The median and mean for ${what} are not within a normal deviation`,
      '        These results are probably not that reliable.',
    ];
  return [];
}

function reliabilityWarnings(ct: CellResult['connectionTimes'], l: CellResult['latency']): string[] {
  const rows: Array<[string, Timing]> = ct
    ? [
        ['the initial connection time', ct.connect],
        ['the processing time', ct.processing],
        ['the waiting time', ct.waiting],
        ['the total time', ct.total],
      ]
    : [['the total time', { min: l.min, mean: l.mean, sd: l.stdev, median: l.p50, max: l.max }]];
  return rows.flatMap(([what, t]) => reliabilityWarning(what, t.mean, t.median, t.sd));
}

/** One ApacheBench 2.3 block for one result, line for line; what the engine did not measure says n/a. */
export function renderAbText(result: CellResult, doc: RunDocument): string {
  const engine = result.engine ? `, measured with ${result.engine.name} ${result.engine.version}` : '';
  const header = `bench ${doc.tool.version}: ${result.scenario} on ${result.target}, ab-style report${engine}`;
  if (result.status === 'failed') return `${header}\n\nFailed: ${result.error ?? 'unknown error'}\n`;
  const { latency: l, durationSeconds: t, requests: done, concurrency: c } = result;
  const b = result.failedBreakdown;
  const ct = result.connectionTimes;
  const lines = [
    header,
    '',
    abLine('Server Software:', result.server.software),
    abLine('Server Hostname:', result.server.hostname),
    abLine('Server Port:', String(result.server.port)),
    '',
    abLine('Document Path:', result.document.path),
    abLine('Document Length:', `${result.document.length} bytes`),
    '',
    abLine('Concurrency Level:', String(c)),
    abLine('Time taken for tests:', `${t.toFixed(3)} seconds`),
    abLine('Complete requests:', String(done)),
    abLine('Failed requests:', String(result.failed)),
  ];
  if (result.failed > 0) {
    lines.push(`   (Connect: ${b.connect}, Receive: ${b.receive}, Length: ${b.length}, Exceptions: ${b.exceptions})`);
  }
  if (result.non2xx > 0) lines.push(abLine('Non-2xx responses:', String(result.non2xx)));
  if (result.keepAlive) lines.push(abLine('Keep-Alive requests:', String(result.keepAliveRequests ?? done)));
  const perRequest = done > 0 ? (c * t * 1000) / done : 0;
  const acrossAll = done > 0 ? (t * 1000) / done : 0;
  lines.push(
    abLine('Total transferred:', `${result.bytes.total} bytes`),
    abLine('HTML transferred:', `${result.bytes.body} bytes`),
    abLine('Requests per second:', `${(done / t).toFixed(2)} [#/sec] (mean)`),
    abLine('Time per request:', `${perRequest.toFixed(3)} [ms] (mean)`),
    abLine('Time per request:', `${acrossAll.toFixed(3)} [ms] (mean, across all concurrent requests)`),
    abLine('Transfer rate:', `${(result.bytes.total / 1024 / t).toFixed(2)} [Kbytes/sec] received`),
    '',
    'Connection Times (ms)',
    '              min  mean[+/-sd] median   max',
    timesRow('Connect:', ct ? timing(ct.connect) : notMeasured),
    timesRow('Processing:', ct ? timing(ct.processing) : notMeasured),
    timesRow('Waiting:', ct ? timing(ct.waiting) : notMeasured),
    timesRow(
      'Total:',
      ct ? timing(ct.total) : [padInt(l.min, 5), padInt(l.mean, 4), padFixed(l.stdev, 5, 1), padInt(l.p50, 6), padInt(l.max, 7)],
    ),
    ...reliabilityWarnings(ct, l),
    '',
    'Percentage of the requests served within a certain time (ms)',
  );
  const percentiles: Array<[number, number]> = [
    [50, l.p50],
    [66, l.p66],
    [75, l.p75],
    [80, l.p80],
    [90, l.p90],
    [95, l.p95],
    [98, l.p98],
    [99, l.p99],
  ];
  for (const [p, value] of percentiles) lines.push(`  ${p}%  ${padInt(value, 5)}`);
  lines.push(` 100%  ${padInt(l.max, 5)} (longest request)`);
  // a workload's steps, after ab's block: each one's share, rate and percentiles
  for (const step of result.steps ?? [])
    lines.push(
      `bench step ${step.name}: ${step.requests} requests (${formatNumber(step.sharePercent, 1)}%), ${formatNumber(step.rps, 2)} rps, p50 ${formatNumber(step.latency.p50)} ms, p99 ${formatNumber(step.latency.p99)} ms, ${step.failed} failed, ${step.non2xx} non-2xx`,
    );
  // bench's own readings of the cell (a possible leak, a drift), after ab's block
  const placed = result.hosts
    ? [
        `the stack ran on ${result.hosts.server}${result.hosts.services && result.hosts.services !== result.hosts.server ? `, its services on ${result.hosts.services}` : ''}`,
      ]
    : [];
  const notes = [...placed, ...(result.limit ? [result.limit.line] : []), ...result.notes];
  if (notes.length > 0) lines.push('', ...notes.map((note) => `bench note: ${note}`));
  lines.push(...profileAbLines(result));
  return `${lines.join('\n')}\n`;
}

/** The ab reporter: a block per result, as each cell finishes (or into --out at the end). */
export const abReporter: ReporterFactory = (context) => {
  const blocks: string[] = [];
  return {
    name: 'ab',
    onResult(result, doc) {
      const text = renderAbText(result, doc);
      if (context.outFile) blocks.push(text);
      else context.stdout(`${text}\n`);
    },
    async onRunEnd(doc) {
      // on several hosts, each machine after the blocks (ab names one server, by its address)
      const thresholds = [...thresholdLines(doc), ...(doc.hosts ? machineLines(doc) : [])];
      const trailer = thresholds.length > 0 ? `${thresholds.join('\n')}\n` : '';
      if (!context.outFile) {
        if (trailer) context.stdout(trailer);
        return;
      }
      await writeFileAtomically(context.outFile, [...blocks, trailer].filter(Boolean).join('\n'));
    },
  };
};
