import type { CellResult, SecondPoint } from '@bench/core';
import { formatNumber } from '../format.js';
import { chartFigure, type ChartSpec } from './chart.js';

/**
 * What a cell's connections cost, where the engine timed them: a chart of new connections per second beside rps
 * (a line each), with the percentiles of each phase (TCP connect, TLS handshake, first byte) in its table; '' for a
 * cell whose engine did not time its connections, or whose connections all opened at its start in cleartext.
 */
export function connectionCharts(r: CellResult, title: string, series: readonly SecondPoint[], shadeBefore?: number): string {
  const connects = r.connects;
  // worth a chart over TLS, or when connections kept opening (no keep-alive, a server that closes): not for a run
  // whose connections all opened at its start
  const reopening = series.some((p) => p.t > 0 && (p.newConnections ?? 0) > 0);
  if (!connects || !(series.some((p) => p.handshake) || reopening)) return '';
  const handshakes = series.some((p) => p.handshake);
  const each = formatNumber(connects.requestsPerConnection ?? 0);
  const spec: ChartSpec = {
    kind: 'time',
    title: `${title}: new connections${handshakes ? ' and their TLS handshakes' : ''} per second (${formatNumber(connects.count)} in all, ${each} ${each === '1' ? 'answer' : 'answers'} each)`,
    xLabel: 's',
    yLabel: 'connections',
    rightLabel: handshakes ? 'ms' : 'rps',
    x: series.map((p) => p.t),
    ...(shadeBefore === undefined ? {} : { shadeBefore }),
    // over TLS the handshakes' time beside the count, else the answers
    series: [
      { label: 'new connections', values: series.map((p) => p.newConnections ?? null) },
      ...(handshakes
        ? [
            { label: 'handshake mean ms', values: series.map((p) => p.handshake?.mean ?? null), axis: 'right' as const },
            { label: 'handshake max ms', values: series.map((p) => p.handshake?.max ?? null), axis: 'right' as const, dash: [6, 3] },
          ]
        : [{ label: 'rps', values: series.map((p) => p.rps), axis: 'right' as const, dash: [6, 3] }]),
    ],
  };
  const phases = [
    ['TCP connect', connects.latency],
    ['TLS handshake', connects.handshake],
    ["first byte (from the connection's start)", connects.firstByte],
  ] as const;
  const table = {
    header: ['phase', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'mean ms'],
    rows: phases.flatMap(([phase, l]) => (l ? [[phase, l.p50, l.p90, l.p99, l.max, formatNumber(l.mean, 3)]] : [])),
  };
  return chartFigure(spec, table);
}
