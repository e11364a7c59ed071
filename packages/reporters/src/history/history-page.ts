import { compareProfiledRuns, movedMost, movedPhrase, type ProfileComparison } from '@bench/core';
import { commitUrl, type History, type HistoryPoint, type HistorySeries, type SeriesChanges } from '@bench/history';
import { profileDifference } from '../profile/flame-html.js';
import { chartFigure, type ChartSpec } from '../html/chart.js';
import { escapeHtml, renderPage } from '../html/page.js';
import { commitRange, formatPValue, optionsLine, pointTime } from './render-history.js';

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const signed = (percent: number) => `${percent > 0 ? '+' : ''}${percent.toFixed(1)}%`;

function commitCell(point: HistoryPoint): string {
  const short = escapeHtml(point.git.commit?.slice(0, 7) ?? '-');
  const url = commitUrl(point.git.repositoryUrl, point.git.commit);
  return url && /^https?:\/\//.test(url)
    ? `<a href="${escapeHtml(url)}" rel="noopener"><code>${short}</code></a>`
    : `<code>${short}</code>`;
}

// The runs of a series with their commits (linked when the repository's address is known) and numbers.
function runsTable(series: HistorySeries, changes: SeriesChanges[]): string {
  const header = ['run', 'commit', 'branch', 'committed (UTC)', 'rps', 'p50 ms', 'p99 ms', 'failed', 'change'];
  const rows = series.points.map((p, i) => {
    const here = changes
      .flatMap((c) => c.changes)
      .filter((c) => c.index === i)
      .map(
        (c) =>
          `<span class="${c.regression ? 'fail' : 'pass'}" title="p = ${formatPValue(c.pValue)}">◆ ${escapeHtml(`${c.metric} ${signed(c.changePercent)}`)}</span>`,
      )
      .join('<br>');
    const cells = [
      String(i + 1),
      commitCell(p),
      escapeHtml(p.git.branch ?? '-'),
      `<span title="${escapeHtml(p.git.commitTime ?? p.runStartedAt)}">${escapeHtml(pointTime(p))}</span>`,
      escapeHtml(round(p.metrics.rps, 0).toLocaleString('en-US')),
      escapeHtml(String(round(p.metrics.p50, 2))),
      escapeHtml(String(round(p.metrics.p99, 2))),
      escapeHtml(String(p.metrics.failed)),
      here,
    ];
    return `<tr>${cells.map((c) => `<td style="white-space: nowrap">${c}</td>`).join('')}</tr>`;
  });
  return `<table><thead><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function seriesSection(series: HistorySeries, changes: SeriesChanges[]): string {
  const x = series.points.map((_, i) => i + 1);
  // a change sits between the last run before it and the first after it
  const markers = [...new Set(changes.flatMap((c) => c.changes.map((cp) => cp.index + 0.5)))];
  const spec: ChartSpec = {
    kind: 'time',
    title: `${series.label}: requests per second and p99 latency by run`,
    xLabel: 'run',
    yLabel: 'requests/s',
    rightLabel: 'p99 ms',
    x,
    series: [
      { label: 'rps', values: series.points.map((p) => round(p.metrics.rps, 1)) },
      { label: 'p99 ms', values: series.points.map((p) => round(p.metrics.p99, 3)), axis: 'right', dash: [6, 4] },
    ],
    ...(markers.length > 0 ? { markers } : {}),
  };
  const table = {
    header: ['run', 'commit', 'rps', 'p99 ms'],
    rows: series.points.map((p, i) => [i + 1, p.git.commit?.slice(0, 7) ?? '-', round(p.metrics.rps, 1), round(p.metrics.p99, 3)]),
  };
  const m = series.machine;
  const options = optionsLine(series);
  return [
    `<h2>${escapeHtml(series.label)}</h2>`,
    `<p class="meta">${escapeHtml(`${m.hostname}, ${m.cpuModel}, ${m.cores} cores; ${options}`)}</p>`,
    // the chart takes the room the runs' table leaves; on a narrow screen the table goes below it
    `<div style="display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: flex-start">`,
    `<div style="flex: 1 1 420px; min-width: 0">${chartFigure(spec, table)}</div>`,
    `<div style="flex: 0 1 auto; overflow: auto; max-height: 560px">${runsTable(series, changes)}</div>`,
    `</div>`,
  ].join('\n');
}

/** The runs on each side of a change point (from the change before it to the one after), as point indices. */
function segmentsAt(f: SeriesChanges, i: number): [number, number, number] {
  const bounds = [0, ...f.changes.map((c) => c.index), f.series.points.length];
  return [bounds[i]!, bounds[i + 1]!, bounds[i + 2]!];
}

/** `bench history report`: one offline page, a trend chart per series beside its runs, change points marked. */
export function renderHistoryPage(history: History, series: readonly HistorySeries[], found: readonly SeriesChanges[]): string {
  // the profiles of the runs on both sides of each change point (history add --profiles), compared once per series and
  // segments: rps and p99 changing between the same runs share one section
  const compared = new Map<
    string,
    { anchor: string; label: string; commits: string; profile: ProfileComparison | undefined; changes: string[]; regression: boolean }
  >();
  const all = found.flatMap((f) =>
    f.changes.map((c, i) => {
      const [from, at, to] = segmentsAt(f, i);
      const key = `${f.series.id} ${from} ${at} ${to}`;
      let section = compared.get(key);
      if (!section) {
        const side = (a: number, b: number) => f.series.points.slice(a, b).flatMap((p) => p.profiles);
        section = {
          anchor: `change-${compared.size + 1}`,
          label: f.series.label,
          commits: commitRange(c),
          profile: compareProfiledRuns(side(from, at), side(at, to), false),
          changes: [],
          regression: c.regression,
        };
        compared.set(key, section);
      }
      section.changes.push(`${c.metric} ${signed(c.changePercent)}`);
      return { f, c, section };
    }),
  );
  const cells = (row: readonly string[]) => row.map((c) => `<td>${c}</td>`).join('');
  const summary =
    all.length === 0
      ? '<p>No change point found.</p>'
      : `<table><thead><tr>${['series', 'metric', 'commits', 'change', 'p-value', '', 'where the CPU moved'].map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${all
          .map(
            ({ f, c, section }) =>
              `<tr>${cells([
                ...[
                  f.series.label,
                  c.metric,
                  commitRange(c),
                  signed(c.changePercent),
                  formatPValue(c.pValue),
                  c.regression ? 'regression' : 'improvement',
                ].map(escapeHtml),
                section.profile ? `<a href="#${section.anchor}">flame graphs</a>` : '-',
              ])}</tr>`,
          )
          .join('')}</tbody></table>`;
  const moved = [...compared.values()].flatMap(({ anchor, label, commits, profile, changes, regression }) => {
    if (!profile) return [];
    const culprit = movedMost(profile, regression ? 'grew' : 'shrank');
    const heading = `${label}: ${changes.join(', ')} between ${commits}`;
    return [
      `<section id="${anchor}"><h3>${escapeHtml(heading)}</h3>${profileDifference(label, profile, culprit ? capitalized(movedPhrase(culprit)) : undefined)}</section>`,
    ];
  });
  const damaged =
    history.damaged.length > 0
      ? `<ul class="notes">${history.damaged.map((d) => `<li class="warn">${escapeHtml(`line ${d.line} skipped: ${d.reason}`)}</li>`).join('')}</ul>`
      : '';
  const body = [
    `<h1>bench history</h1>`,
    `<p class="meta">${escapeHtml(`${history.file}: ${series.length} series, ${series.reduce((n, s) => n + s.points.length, 0)} runs`)}</p>`,
    damaged,
    `<h2>Change points</h2>`,
    summary,
    ...(moved.length > 0 ? [`<h2>Where the CPU moved at each change point</h2>`, ...moved] : []),
    ...(series.length === 0 ? ['<p>The history holds no successful measurement yet.</p>'] : []),
    ...series.map((s) =>
      seriesSection(
        s,
        found.filter((f) => f.series === s),
      ),
    ),
  ].join('\n');
  return renderPage('bench history', body);
}
