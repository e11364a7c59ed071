import {
  mergeConnectTimes,
  emptyFailures,
  encodeLatencyHistogram,
  mergeLatencyHistograms,
  recycleLatencyHistogram,
  summarizeLatency,
  type EncodedHistogram,
  type EngineSecond,
  type LoadMeasurement,
  type LoadShape,
  type StepMeasurement,
} from '@bench/core';

/** Test mode (BENCH_RAW_LATENCY_SAMPLES=1): each thread also returns every latency it recorded (µs), so a test can pool them. */
export const RAW_SAMPLES_ENV = 'BENCH_RAW_LATENCY_SAMPLES';
export type ThreadMeasurement = LoadMeasurement & {
  readonly rawSamplesUs?: readonly number[];
  /** Open loop: the histogram of `latencyUncorrected`, so threads merge it exactly too. */
  readonly uncorrectedHistogram?: EncodedHistogram;
  /** Open loop: the histogram of `lateness`, likewise. */
  readonly latenessHistogram?: EncodedHistogram;
  /** Open loop: requests due within the period that no free connection could send. */
  readonly droppedRequests?: number;
};

/** Each thread's share of the shape: connections (and a -n request count) split as evenly as whole numbers allow, a --rate evenly. */
export function splitShape(shape: LoadShape, threads: number): LoadShape[] {
  const n = Math.max(1, Math.min(threads, shape.connections));
  const share = (total: number, i: number) => Math.floor(total / n) + (i < total % n ? 1 : 0);
  return Array.from({ length: n }, (_, i) => {
    // each thread runs one share on its own
    const { threads, ...rest } = shape;
    void threads;
    return {
      ...rest,
      connections: share(shape.connections, i),
      ...(shape.requests !== undefined ? { requests: share(shape.requests, i) } : {}),
      ...(shape.rate !== undefined ? { rate: shape.rate / n } : {}),
    };
  });
}

const add = (into: Record<string, number>, from: Readonly<Record<string, number>>) => {
  for (const [key, value] of Object.entries(from)) into[key] = (into[key] ?? 0) + value;
};

/** Seconds of every thread on one clock (the earliest start), summed by t. */
function mergeSeconds(parts: readonly ThreadMeasurement[], startNs: bigint): EngineSecond[] {
  const byT = new Map<number, { second: EngineSecond; latencyWeight: number }[]>();
  for (const part of parts) {
    const offset = Math.round(Number((part.startedAtNs ?? startNs) - startNs) / 1e9);
    for (const second of part.seconds ?? []) {
      const t = second.t + offset;
      byT.set(t, [...(byT.get(t) ?? []), { second, latencyWeight: second.latency ? second.requests : 0 }]);
    }
  }
  return [...byT.keys()]
    .sort((a, b) => a - b)
    .map((t) => {
      const seconds = byT.get(t)!;
      const failures = emptyFailures();
      for (const { second } of seconds)
        add(failures as unknown as Record<string, number>, second.failures as unknown as Record<string, number>);
      const timed = seconds.filter((s) => s.latencyWeight > 0);
      const weight = timed.reduce((sum, s) => sum + s.latencyWeight, 0);
      // a second's percentiles across threads: their request-weighted mean (the whole run's histogram is merged exactly)
      const mean = (key: 'p50' | 'p90' | 'p99') =>
        Math.round((timed.reduce((sum, s) => sum + s.second.latency![key] * s.latencyWeight, 0) / weight) * 1000) / 1000;
      const cpus = seconds.flatMap((s) => (s.second.clientCpuPercent !== undefined ? [s.second.clientCpuPercent] : []));
      const opened = seconds.flatMap((s) => (s.second.newConnections !== undefined ? [s.second.newConnections] : []));
      const handshakes = seconds.flatMap((s) => (s.second.handshakes ? [s.second.handshakes] : []));
      const handshakeCount = handshakes.reduce((sum, h) => sum + h.count, 0);
      return {
        t,
        seconds: Math.max(...seconds.map((s) => s.second.seconds)),
        requests: seconds.reduce((sum, s) => sum + s.second.requests, 0),
        non2xx: seconds.reduce((sum, s) => sum + s.second.non2xx, 0),
        failures,
        ...(weight > 0
          ? { latency: { p50: mean('p50'), p90: mean('p90'), p99: mean('p99'), max: Math.max(...timed.map((s) => s.second.latency!.max)) } }
          : {}),
        // every thread samples the whole process's CPU: one reading, not a sum
        ...(cpus.length > 0 ? { clientCpuPercent: Math.max(...cpus) } : {}),
        ...(opened.length > 0 ? { newConnections: opened.reduce((sum, n) => sum + n, 0) } : {}),
        ...(handshakeCount > 0
          ? {
              handshakes: {
                count: handshakeCount,
                mean: Math.round((handshakes.reduce((sum, h) => sum + h.mean * h.count, 0) / handshakeCount) * 1000) / 1000,
                max: Math.max(...handshakes.map((h) => h.max)),
              },
            }
          : {}),
      };
    });
}

function merged(histograms: readonly EncodedHistogram[]): { latency: LoadMeasurement['latency']; histogram: EncodedHistogram } {
  const h = mergeLatencyHistograms(histograms);
  const result = { latency: summarizeLatency(h), histogram: encodeLatencyHistogram(h) };
  recycleLatencyHistogram(h);
  return result;
}

/** Each step of a workload, its threads' parts merged as whole runs are. */
function mergeSteps(parts: readonly ThreadMeasurement[]): StepMeasurement[] | undefined {
  const first = parts[0]?.steps;
  if (!first || !parts.every((p) => p.steps?.length === first.length)) return undefined;
  return first.map((step, i) => {
    const merged = mergeThreads(
      parts.map((p) => ({
        ...p.steps![i]!,
        durationSeconds: p.durationSeconds,
        bytes: { total: 0, body: 0 },
        ...(p.startedAtNs !== undefined ? { startedAtNs: p.startedAtNs } : {}),
      })),
    );
    return {
      name: step.name,
      requests: merged.requests,
      latency: merged.latency,
      histogram: merged.histogram!,
      failures: merged.failures,
      non2xx: merged.non2xx,
      statusCodes: merged.statusCodes,
      errorSamples: merged.errorSamples,
      ...(merged.seconds ? { seconds: merged.seconds } : {}),
    };
  });
}

/** One measurement from the threads' own: counts add, histograms merge exactly, seconds add by t. */
export function mergeThreads(parts: readonly ThreadMeasurement[]): ThreadMeasurement {
  if (parts.length === 1) return parts[0]!;
  const steps = mergeSteps(parts);
  const startNs = parts.reduce<bigint | undefined>(
    (min, p) => (p.startedAtNs !== undefined && (min === undefined || p.startedAtNs < min) ? p.startedAtNs : min),
    undefined,
  );
  const { latency, histogram } = merged(parts.flatMap((p) => (p.histogram ? [p.histogram] : [])));
  const uncorrected = parts.every((p) => p.uncorrectedHistogram) ? merged(parts.map((p) => p.uncorrectedHistogram!)) : undefined;
  const late = parts.every((p) => p.latenessHistogram) ? merged(parts.map((p) => p.latenessHistogram!)) : undefined;
  const rates = parts.flatMap((p) => (p.rate ? [p.rate] : []));
  const failures = emptyFailures();
  const statusCodes: Record<string, number> = {};
  for (const p of parts) {
    add(failures as unknown as Record<string, number>, p.failures as unknown as Record<string, number>);
    add(statusCodes, p.statusCodes);
  }
  const sum = (pick: (p: ThreadMeasurement) => number | undefined) => parts.reduce((total, p) => total + (pick(p) ?? 0), 0);
  const clients = parts.flatMap((p) => (p.client ? [p.client] : []));
  const loops = parts.flatMap((p) => (p.eventLoopDelay ? [p.eventLoopDelay] : []));
  const raw = parts.every((p) => p.rawSamplesUs) ? parts.flatMap((p) => p.rawSamplesUs!) : undefined;
  const connects = parts.every((p) => p.connects) ? mergeConnectTimes(parts.map((p) => p.connects!)) : undefined;
  return {
    // from the first thread's start to the last one's end
    durationSeconds: Math.max(
      ...parts.map((p) => (startNs !== undefined ? Number((p.startedAtNs ?? startNs) - startNs) / 1e9 : 0) + p.durationSeconds),
    ),
    requests: sum((p) => p.requests),
    latency,
    ...(uncorrected ? { latencyUncorrected: uncorrected.latency, uncorrectedHistogram: uncorrected.histogram } : {}),
    ...(late ? { lateness: late.latency, latenessHistogram: late.histogram } : {}),
    ...(rates.length === parts.length
      ? {
          rate: {
            target: rates.reduce((total, r) => total + r.target, 0),
            achieved: Math.round(rates.reduce((total, r) => total + r.achieved, 0) * 100) / 100,
          },
        }
      : {}),
    ...(parts.some((p) => p.droppedRequests !== undefined) ? { droppedRequests: sum((p) => p.droppedRequests) } : {}),
    failures,
    non2xx: sum((p) => p.non2xx),
    statusCodes,
    bytes: { total: sum((p) => p.bytes.total), body: sum((p) => p.bytes.body) },
    ...(parts.every((p) => p.keepAliveResponses !== undefined) ? { keepAliveResponses: sum((p) => p.keepAliveResponses) } : {}),
    errorSamples: [...new Set(parts.flatMap((p) => p.errorSamples))].slice(0, 5),
    // every thread samples the whole process: its busiest reading stands for it
    ...(clients.length > 0
      ? {
          client: {
            cpuPercent: Math.max(...clients.map((c) => c.cpuPercent)),
            rssBytes: Math.max(...clients.map((c) => c.rssBytes)),
            processes: 1,
          },
        }
      : {}),
    ...(loops.length > 0
      ? {
          eventLoopDelay: {
            mean: Math.max(...loops.map((l) => l.mean)),
            p99: Math.max(...loops.map((l) => l.p99)),
            max: Math.max(...loops.map((l) => l.max)),
          },
        }
      : {}),
    ...(startNs !== undefined ? { seconds: mergeSeconds(parts, startNs), startedAtNs: startNs } : {}),
    histogram,
    ...(connects ? { connects } : {}),
    ...(raw ? { rawSamplesUs: raw } : {}),
    ...(steps ? { steps } : {}),
    ...(parts[0]?.engineVariant ? { engineVariant: parts[0].engineVariant } : {}),
  };
}
