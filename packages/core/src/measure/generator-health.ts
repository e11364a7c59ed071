import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LoadMeasurement } from '../engine.js';
import { sampleSelf } from './resource-sampler.js';

const LOOP_RESOLUTION_MS = 10;
// Node's monitor records the time between its timer's turns, every `resolution` ms when idle (an idle loop reads 10.3
// at p99): what the loop was late by is that time less the resolution.
const lateMs = (ns: number) => Math.max(0, Math.round(ns / 1e3 - LOOP_RESOLUTION_MS * 1e3) / 1e3);

/** A generator at this share of one core may be measuring itself rather than the server. */
export const CLIENT_SATURATED_PERCENT = 90;
/** An in-process generator whose event loop lags this much shows its own lag as latency. */
export const EVENT_LOOP_LAG_MS = 50;

/** For an in-process generator: this process's CPU and memory, and its event loop's delay, over a run. */
export function watchGeneratorHealth(): {
  stop(): Required<Pick<LoadMeasurement, 'client'>> & Pick<LoadMeasurement, 'eventLoopDelay'>;
  /** This process's CPU in each whole second so far (percent of one core). */
  cpuPerSecond(): number[];
} {
  const client = sampleSelf();
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loopDelay.enable();
  return {
    cpuPerSecond: () => client.perSecond(),
    stop() {
      loopDelay.disable();
      // a run shorter than the monitor's turn (a scaled suite's fifth of a second) has no reading: its delay is unknown, not 0
      if (loopDelay.count === 0) return { client: client.stop() };
      return {
        client: client.stop(),
        eventLoopDelay: { mean: lateMs(loopDelay.mean), p99: lateMs(loopDelay.percentile(99)), max: lateMs(loopDelay.max) },
      };
    },
  };
}
