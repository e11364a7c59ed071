import { median, mergeLatencyHistograms, percentileCurve, type CellResult, type RunDocument } from '@bench/core';
import { formatBytes, formatNumber } from '../format.js';
import { chartFigure, nines, numbersTable, type ChartSpec } from './chart.js';
import { soakLine } from '../soak-line.js';
import { machineLines } from '../machine-line.js';
import { stepCharts } from './step-charts.js';
import { connectionCharts } from './connection-charts.js';
import { profileSections } from '../profile/flame-html.js';
import { escapeHtml, htmlTable, renderPage } from './page.js';

const MB = 1024 * 1024;
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

const cellLabel = (r: Pick<CellResult, 'target' | 'concurrency'>) => `${r.target} c=${r.concurrency}`;
const failuresOf = (f: { connect: number; receive: number; length: number; exceptions: number }) =>
  f.connect + f.receive + f.length + f.exceptions;

/** Cells of one scenario grouped by (target, concurrency), repeats together, in the order they first ran. */
function groupCells(results: readonly CellResult[]): CellResult[][] {
  const groups = new Map<string, CellResult[]>();
  for (const r of results) groups.set(cellLabel(r), [...(groups.get(cellLabel(r)) ?? []), r]);
  return [...groups.values()];
}

function header(doc: RunDocument, live: boolean): string {
  const engines = [...new Set(doc.results.flatMap((r) => (r.engine ? [`${r.engine.name} ${r.engine.version}`] : [])))];
  const options = Object.entries(doc.options)
    .filter(([, v]) => v !== undefined)
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects went through JSON.stringify
    .map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)] as const);
  const out = [
    `<h1>bench: ${escapeHtml([...new Set(doc.results.map((r) => r.scenario))].join(', ') || 'no cells')}</h1>`,
    `<p class="meta">${escapeHtml(doc.startedAt)}${doc.finishedAt ? ` to ${escapeHtml(doc.finishedAt)}` : ''}; bench ${escapeHtml(doc.tool.version)}, results schema ${doc.schemaVersion}</p>`,
    ...machineLines(doc).map((line) => `<p class="meta">${escapeHtml(line)}</p>`),
    `<p class="meta">Command: <code>${escapeHtml(doc.command || '(not recorded)')}</code></p>`,
    ...(doc.redacted?.length ? [`<p class="meta">Redacted (sent, never written): ${escapeHtml(doc.redacted.join(', '))}</p>`] : []),
    `<p class="meta">Engine: ${escapeHtml(engines.join(', ') || 'unknown')}</p>`,
  ];
  if (doc.schemaVersion < 2) {
    out.push(
      `<p class="warn">This results file was written with results schema ${doc.schemaVersion}: it has no per-second series and no latency histograms, so the charts over time and the latency distributions are not drawn. Run again with this bench to get them.</p>`,
    );
  }
  const cut = doc.results.find((r) => r.interrupted);
  if (live)
    out.push(
      `<p class="meta">The run is in progress: ${doc.results.length - (cut ? 1 : 0)} finished cell(s)${cut ? `, and ${escapeHtml(cellLabel(cut))} so far` : ''}.</p>`,
    );
  else if (cut)
    out.push(
      `<p class="warn">The run did not complete: ${doc.results.length - 1} finished cell(s) shown, and ${escapeHtml(cellLabel(cut))}, where it stopped, up to its second ${cut.interrupted?.atSecond ?? 0} (read from the run's journal).</p>`,
    );
  else if (!doc.complete) out.push(`<p class="warn">The run did not complete: ${doc.results.length} finished cell(s) shown.</p>`);
  const warnings = doc.results.flatMap((r) =>
    r.notes.filter((n) => /load generator/.test(n)).map((n) => `${r.scenario} ${cellLabel(r)}: ${n}`),
  );
  if (warnings.length > 0) out.push(`<ul class="notes">${warnings.map((w) => `<li class="warn">${escapeHtml(w)}</li>`).join('')}</ul>`);
  out.push(`<details><summary>options</summary>${htmlTable(['option', 'value'], options)}</details>`);
  const thresholds = doc.thresholds ?? [];
  if (thresholds.length > 0) {
    const failed = thresholds.filter((t) => !t.ok).length;
    out.push(
      `<h2>Thresholds: ${thresholds.length} checked, <span class="${failed ? 'fail' : 'pass'}">${failed} failed</span></h2>`,
      `<table><thead><tr><th>cell</th><th>field</th><th>limit</th><th>actual</th><th>result</th></tr></thead><tbody>${thresholds
        .map(
          (t) =>
            `<tr><td>${escapeHtml(`${t.scenario}/${t.target} c=${t.concurrency}`)}</td><td>${escapeHtml(t.field)}</td><td>${escapeHtml(t.expression)}</td><td>${t.actual === undefined ? 'cell failed' : formatNumber(t.actual, 3)}</td><td class="${t.ok ? 'pass' : 'fail'}">${t.ok ? 'pass' : 'FAIL'}</td></tr>`,
        )
        .join('')}</tbody></table>`,
    );
  }
  return out.join('\n');
}

/** The scenario's summary: one row per (target, concurrency), medians over repeats; the same numbers as the JSON's. */
function summaryTable(groups: readonly CellResult[][]): string {
  const rows = groups.map((runs) => {
    const ok = runs.filter((r) => r.status === 'ok');
    const first = runs[0]!;
    if (ok.length === 0) return [first.target, first.concurrency, `failed: ${first.error ?? ''}`, '', '', '', '', '', ''];
    const cpu = ok.flatMap((r) => (r.resources?.server ? [r.resources.server.cpuPercent] : []));
    const rss = ok.flatMap((r) => (r.resources?.server ? [r.resources.server.rssBytes] : []));
    return [
      first.target,
      first.concurrency,
      round(median(ok.map((r) => r.rps))),
      round(median(ok.map((r) => r.latency.p50)), 3),
      round(median(ok.map((r) => r.latency.p99)), 3),
      ok.reduce((s, r) => s + r.failed, 0),
      ok.reduce((s, r) => s + r.non2xx, 0),
      cpu.length ? `${round(median(cpu), 1)}%` : '-',
      rss.length ? formatBytes(Math.max(...rss)) : '-',
    ];
  });
  return `<table class="summary">${htmlTable(['target', 'c', 'rps', 'p50 ms', 'p99 ms', 'failed', 'non-2xx', 'server CPU', 'server RSS'], rows).slice('<table>'.length)}`;
}

function rpsBars(groups: readonly CellResult[][]): string {
  const stats = groups.map((runs) => {
    const rps = runs.filter((r) => r.status === 'ok').map((r) => r.rps);
    return {
      label: cellLabel(runs[0]!),
      runs: rps.length,
      median: rps.length ? median(rps) : 0,
      min: Math.min(...rps),
      max: Math.max(...rps),
    };
  });
  const spec: ChartSpec = {
    kind: 'bars',
    title: 'Requests per second (median of the runs; whiskers: their range)',
    yLabel: 'rps',
    x: stats.map((_, i) => i),
    labels: stats.map((s) => s.label),
    series: [{ label: 'rps', values: stats.map((s) => round(s.median)) }],
    ranges: stats.map((s) => (s.runs > 1 ? ([s.min, s.max] as const) : null)),
  };
  return chartFigure(spec, {
    header: ['cell', 'runs', 'median rps', 'min rps', 'max rps'],
    rows: stats.map((s) => [s.label, s.runs, round(s.median), s.runs ? round(s.min) : '-', s.runs ? round(s.max) : '-']),
  });
}

const CURVE_TABLE_PERCENTILES = [50, 90, 99, 99.9, 99.99];

function latencyDistribution(groups: readonly CellResult[][]): string {
  const curves = groups.flatMap((runs) => {
    const histograms = runs.flatMap((r) => (r.status === 'ok' && r.histogram ? [r.histogram] : []));
    if (histograms.length === 0) return [];
    const merged = mergeLatencyHistograms(histograms);
    const curve = percentileCurve(merged);
    const at = CURVE_TABLE_PERCENTILES.map((p) => round(merged.getValueAtPercentile(p) / 1000, 3));
    const row = [cellLabel(runs[0]!), merged.totalCount, ...at, round(merged.maxValue / 1000, 3)];
    merged.destroy();
    return [{ label: cellLabel(runs[0]!), curve, row }];
  });
  if (curves.length === 0) return '';
  // every curve on the same x: the first one's percentiles (all curves use the same steps)
  const xs = curves[0]!.curve.filter((p) => p.percentile < 100).map((p) => round(nines(p.percentile), 4));
  const spec: ChartSpec = {
    kind: 'percentile',
    title: 'Latency by percentile (all runs of each cell merged), log 1/(1-p) axis',
    xLabel: 'percentile',
    yLabel: 'ms',
    x: xs,
    series: curves.map((c) => ({ label: c.label, values: c.curve.filter((p) => p.percentile < 100).map((p) => p.ms) })),
  };
  return chartFigure(spec, {
    header: ['cell', 'requests', ...CURVE_TABLE_PERCENTILES.map((p) => `p${p} ms`), 'max ms'],
    rows: curves.map((c) => c.row),
  });
}

function cellCharts(r: CellResult, live: boolean): string {
  const title = `${cellLabel(r)}${r.repeat > 1 ? `, run ${r.repeat}` : ''}`;
  // what bounded the cell, a long run's soak line (as the markdown report gives them), then the cell's notes
  const lines = [r.limit?.line, soakLine(r), ...r.notes].filter((n): n is string => n !== undefined);
  const notes = lines.length ? `<ul class="notes">${lines.map((n) => `<li class="note">${escapeHtml(n)}</li>`).join('')}</ul>` : '';
  if (r.status === 'failed') return `<h3>${escapeHtml(title)}</h3><p class="fail">failed: ${escapeHtml(r.error ?? 'unknown')}</p>${notes}`;
  const all = r.series ?? [];
  if (all.length === 0) return `<h3>${escapeHtml(title)}</h3><p class="note">No per-second series in this result.</p>${notes}`;
  // a sliver of a second at an edge of a run is a rate over a few ms: the table shows it, the charts do not
  const series = all.filter((p) => p.seconds >= 0.5);
  const x = series.map((p) => p.t);
  const warm = series.some((p) => p.phase === 'warmup') ? 0 : undefined;
  const shade = warm === undefined ? {} : { shadeBefore: warm };
  const hasLatency = series.some((p) => p.latency);
  const throughput: ChartSpec = {
    kind: 'time',
    title: `${title}: rps and latency per second${warm === undefined ? '' : ' (warm-up shaded)'}`,
    xLabel: 's',
    yLabel: 'rps',
    rightLabel: 'ms',
    x,
    ...shade,
    series: [
      { label: 'rps', values: series.map((p) => p.rps) },
      ...(hasLatency
        ? [
            { label: 'p50 ms', values: series.map((p) => p.latency?.p50 ?? null), axis: 'right' as const },
            { label: 'p99 ms', values: series.map((p) => p.latency?.p99 ?? null), axis: 'right' as const, dash: [6, 3] },
          ]
        : []),
    ],
  };
  const failures: ChartSpec = {
    kind: 'time',
    title: `${title}: failures and non-2xx per second`,
    xLabel: 's',
    yLabel: 'count',
    x,
    ...shade,
    series: [
      { label: 'failed', values: series.map((p) => failuresOf(p.failures)) },
      { label: 'timeouts', values: series.map((p) => p.failures.timeouts) },
      { label: 'non-2xx', values: series.map((p) => p.non2xx) },
    ],
  };
  // a killed run's last cell, or a live run's cell in progress, has only its generator's seconds: the server's are
  // handed over when a cell ends
  const hasServer = series.some((p) => p.server);
  const generatorCpu = { label: 'generator CPU (% of one core)', values: series.map((p) => p.client?.cpuPercent ?? null), dash: [6, 3] };
  const resources: ChartSpec = hasServer
    ? {
        kind: 'time',
        title: `${title}: server CPU and memory, generator CPU`,
        xLabel: 's',
        yLabel: '% of one core',
        rightLabel: 'MiB',
        x,
        ...shade,
        series: [
          { label: 'server CPU (% of one core)', values: series.map((p) => p.server?.cpuPercent ?? null) },
          generatorCpu,
          { label: 'server RSS MiB', values: series.map((p) => (p.server ? round(p.server.rssBytes / MB, 1) : null)), axis: 'right' },
        ],
      }
    : {
        kind: 'time',
        title: `${title}: generator CPU (no server readings${r.interrupted ? (live ? ': they come as the cell ends' : ': the run was killed before this cell handed them over') : ''})`,
        xLabel: 's',
        yLabel: '% of one core',
        x,
        ...shade,
        series: [generatorCpu],
      };
  const rows = all.map((p) => [
    p.t,
    p.phase,
    p.requests,
    p.rps,
    p.latency?.p50 ?? '-',
    p.latency?.p90 ?? '-',
    p.latency?.p99 ?? '-',
    p.latency?.max ?? '-',
    failuresOf(p.failures),
    p.non2xx,
    p.server ? p.server.cpuPercent : '-',
    p.server ? round(p.server.rssBytes / MB, 1) : '-',
    p.client ? p.client.cpuPercent : '-',
  ]);
  const table = {
    header: ['t s', 'phase', 'requests', 'rps', 'p50', 'p90', 'p99', 'max', 'failed', 'non-2xx', 'server CPU %', 'server MiB', 'gen CPU %'],
    rows,
  };
  return [
    `<h3>${escapeHtml(title)}: ${formatNumber(r.rps)} rps, p99 ${formatNumber(r.latency.p99)} ms</h3>`,
    notes,
    `<div class="grid">`,
    chartFigure(throughput),
    chartFigure(failures),
    chartFigure(resources),
    connectionCharts(r, title, series, warm),
    `</div>`,
    stepCharts(r, title),
    numbersTable(table, `${title}: the numbers of these charts, second by second`),
  ].join('\n');
}

/**
 * The body of a run's report: header, then per scenario its summary, rps bars, latency distribution and each cell
 * over time; `live`, a run still going (the dashboard), its cell in progress drawn as far as it got.
 */
export function renderRunBody(doc: RunDocument, extraSections = '', live = false): string {
  const out = [header(doc, live), extraSections];
  for (const scenario of [...new Set(doc.results.map((r) => r.scenario))]) {
    const results = doc.results.filter((r) => r.scenario === scenario);
    const groups = groupCells(results);
    out.push(
      `<h2>${escapeHtml(scenario)}</h2>`,
      summaryTable(groups),
      `<div class="grid">`,
      rpsBars(groups),
      latencyDistribution(groups),
      `</div>`,
    );
    for (const r of results) out.push(cellCharts(r, live));
    out.push(profileSections(results));
  }
  return out.join('\n');
}

/** A run's report as one self-contained HTML file. */
export function renderRunHtml(doc: RunDocument, extraSections = ''): string {
  const scenarios = [...new Set(doc.results.map((r) => r.scenario))].join(', ');
  return renderPage(`bench: ${scenarios || 'run'} (${doc.startedAt})`, renderRunBody(doc, extraSections));
}
