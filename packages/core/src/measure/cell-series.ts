import type { EngineSecond } from './series.js';
import type { ResourceSecond } from './resource-sampler.js';
import type { SecondPoint } from '../result.js';

/** One run of the engine (warm-up or measured) with what the resource sampler saw of the server meanwhile. */
export interface SampledRun {
  readonly seconds: readonly EngineSecond[];
  readonly server?: readonly ResourceSecond[] | undefined;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function points(run: SampledRun, phase: SecondPoint['phase'], offset: number): SecondPoint[] {
  return run.seconds.map((second) => {
    const server = run.server?.[second.t];
    return {
      t: second.t + offset,
      phase,
      seconds: second.seconds,
      requests: second.requests,
      rps: round(second.requests / second.seconds),
      non2xx: second.non2xx,
      failures: { ...second.failures },
      ...(second.latency ? { latency: { ...second.latency } } : {}),
      ...(server ? { server: { cpuPercent: server.cpuPercent, rssBytes: server.rssBytes } } : {}),
      ...(second.clientCpuPercent !== undefined ? { client: { cpuPercent: second.clientCpuPercent } } : {}),
      ...(second.newConnections !== undefined ? { newConnections: second.newConnections } : {}),
      ...(second.handshakes ? { handshake: { mean: second.handshakes.mean, max: second.handshakes.max } } : {}),
    };
  });
}

/** A cell's series: warm-up seconds at negative t (ending at -1), then the measured run's from 0. */
export function cellSeries(measured: SampledRun, warmup?: SampledRun): SecondPoint[] {
  return [...(warmup ? points(warmup, 'warmup', -warmup.seconds.length) : []), ...points(measured, 'measure', 0)];
}
