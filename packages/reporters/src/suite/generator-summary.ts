import { type RunDocument, CLIENT_SATURATED_PERCENT, EVENT_LOOP_LAG_MS } from '@bench/core';

const fmt = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });
const count = (n: number, of: number) => (n === of ? `all ${of}` : `${n} of ${of}`);

/** The cells where the load generator may have measured itself: said under a suite's tables, not only in the JSON. */
export function generatorSummary(doc: Pick<RunDocument, 'results'>): string[] {
  const cells = doc.results.filter((r) => r.status === 'ok');
  const busy = cells.map((r) => r.resources?.client?.cpuPercent ?? 0).filter((cpu) => cpu >= CLIENT_SATURATED_PERCENT);
  const lag = cells.map((r) => r.eventLoopDelay?.p99 ?? 0).filter((p99) => p99 >= EVENT_LOOP_LAG_MS);
  const said: string[] = [];
  if (busy.length)
    said.push(
      `used ${CLIENT_SATURATED_PERCENT}% or more of one core in ${count(busy.length, cells.length)} cells (up to ${fmt(Math.max(...busy))}%)`,
    );
  if (lag.length)
    said.push(
      `its event loop lagged (p99 ${EVENT_LOOP_LAG_MS} ms or more, up to ${fmt(Math.max(...lag))} ms) in ${count(lag.length, cells.length)}`,
    );
  if (!said.length) return [];
  return [
    '',
    `Load generator: ${said.join(', and ')}; there the figures measure the client as well as the servers (each cell's note is in the JSON).`,
  ];
}
