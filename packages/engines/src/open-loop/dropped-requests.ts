import type { LoadMeasurement } from '@bench/core';
import type { ThreadMeasurement } from '../threads/merge-threads.js';

/**
 * An open loop's measurement: the requests due within the period that no connection was free to send counted
 * (`droppedRequests`, 0 when none) and, when there were any, said in a line.
 */
export function withDroppedRequests(merged: ThreadMeasurement, connections: number): LoadMeasurement {
  const { uncorrectedHistogram, latenessHistogram, droppedRequests = 0, ...measurement } = merged;
  void uncorrectedHistogram;
  void latenessHistogram;
  const busy = `${droppedRequests} request(s) due within the period were never sent: all ${connections} connection(s) were busy (raise -c)`;
  return {
    ...measurement,
    droppedRequests,
    errorSamples: droppedRequests === 0 ? measurement.errorSamples : [...measurement.errorSamples, busy],
  };
}
