import type { LoadMeasurement } from '@bench/core';
import type { ThreadMeasurement } from '../threads/merge-threads.js';

/** An open loop's measurement, with a line for the requests due within the period that no connection was free to send. */
export function withDroppedRequests(merged: ThreadMeasurement, connections: number): LoadMeasurement {
  const { uncorrectedHistogram, droppedRequests = 0, ...measurement } = merged;
  void uncorrectedHistogram;
  if (droppedRequests === 0) return measurement;
  const busy = `${droppedRequests} request(s) due within the period were never sent: all ${connections} connection(s) were busy (raise -c)`;
  return { ...measurement, errorSamples: [...measurement.errorSamples, busy] };
}
