import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LoadMeasurement } from '../engine.js';
import { sampleSelf } from './resource-sampler.js';

const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;

/** A generator at this share of one core may be measuring itself rather than the server. */
export const CLIENT_SATURATED_PERCENT = 90;
/** An in-process generator whose event loop lags this much shows its own lag as latency. */
export const EVENT_LOOP_LAG_MS = 50;

/** For an in-process generator: this process's CPU and memory, and its event loop's delay, over a run. */
export function watchGeneratorHealth(): {
  stop(): Required<Pick<LoadMeasurement, 'client' | 'eventLoopDelay'>>;
  /** This process's CPU in each whole second so far (percent of one core). */
  cpuPerSecond(): number[];
} {
  const client = sampleSelf();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  return {
    cpuPerSecond: () => client.perSecond(),
    stop() {
      loopDelay.disable();
      return {
        client: client.stop(),
        eventLoopDelay: { mean: ms(loopDelay.mean), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) },
      };
    },
  };
}
