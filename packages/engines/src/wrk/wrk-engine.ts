import { errors } from '@bench/core';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { makePrivateDir, removeDir, type LoadEngine, type LoadMeasurement, type LoadPlan, type Workload } from '@bench/core';
import { notInstalled, versionFrom } from '@bench/core';
import { expandCpuList } from '@bench/core';
import {
  createLatencyHistogram,
  encodeLatencyHistogram,
  summarizeLatency,
  SeriesRecorder,
  type EncodedHistogram,
  type EngineSecond,
} from '@bench/core';
import { runExternal } from '../external-process.js';
import { engineBinary } from '../engine-binary.js';
import { numberAfter } from '../bare-tool.js';
import { wrkScript } from './wrk-script.js';
import { wrkWorkloadLua } from './wrk-workload.js';

interface WrkReport {
  durationUs: number;
  requests: number;
  answers: number;
  bytes: number;
  bodyBytes: number;
  keptAlive: number;
  lengthFailures: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  statuses: Record<string, number>;
  firstUs: number;
  lastUs: number;
  /** wrk's own CPU time and peak RSS, from getrusage() in its done(). */
  cpuUs: number;
  maxRssKb: number;
  /** counts: wrk's whole distribution, value (µs) and count, flat: [v1, n1, v2, n2, ...]. */
  latencyUs: { min: number; max: number; mean: number; stdev: number; percentiles: number[]; counts: number[] };
  /** The base of the per-second counts (the monotonic clock, µs), and per second from it: answers, non-2xx, wrong bodies. */
  baseUs: number;
  secondAnswers: number[];
  secondNon2xx: number[];
  secondLength: number[];
  /** A workload's requests sent, by mix member. */
  sent: Record<string, number>;
}

const REPORT_LINE = 'bench-wrk-result ';
const ms = (us: number) => Math.round(us) / 1000;

/** wrk's distribution as wrk has it (its synthetic samples for slow answers included, as its percentiles are), encoded. */
function wrkHistogram(counts: readonly number[]): EncodedHistogram {
  const histogram = createLatencyHistogram();
  for (let i = 0; i + 1 < counts.length; i += 2) histogram.recordValueWithCount(Math.max(1, counts[i]!), counts[i + 1]!);
  const encoded = encodeLatencyHistogram(histogram);
  histogram.destroy();
  return encoded;
}

/**
 * wrk's percentiles in ms; where wrk's own lose their way (pipelined, wrk counts answers beyond the latencies it
 * records, and its percentiles read 0: the upper ones, or all of them on a slow stack), the same percentiles read
 * from its whole distribution.
 */
export function wrkPercentiles(latency: WrkReport['latencyUs']): number[] {
  const own = latency.percentiles.map(ms);
  const ordered = own.every((value, i) => i === 0 || value >= own[i - 1]!);
  // no request takes 0 µs: a 0 beside recorded latencies is a percentile wrk lost
  const recorded = latency.counts.some((value, i) => i % 2 === 0 && value > 0);
  if (ordered && !(recorded && own.includes(0))) return own;
  const histogram = createLatencyHistogram();
  for (let i = 0; i + 1 < latency.counts.length; i += 2)
    histogram.recordValueWithCount(Math.max(1, latency.counts[i]!), latency.counts[i + 1]!);
  const read = summarizeLatency(histogram);
  histogram.destroy();
  return [read.p50, read.p66, read.p75, read.p80, read.p90, read.p95, read.p98, read.p99, read.p999];
}

/** The Lua script's counts per second; wrk shows its scripts no latency and no socket error, so those are the run's totals only. */
function wrkSeconds(r: WrkReport, startedAtNs: bigint, endNs: bigint, clientCpu: readonly number[]): EngineSecond[] {
  const series = new SeriesRecorder(startedAtNs);
  r.secondAnswers.forEach((answers, second) => {
    const at = startedAtNs + BigInt(second) * 1_000_000_000n;
    series.count(answers, r.secondNon2xx[second] ?? 0, at);
    for (let i = 0; i < (r.secondLength[second] ?? 0); i++) series.failure('length', at);
  });
  return series.finish(endNs, clientCpu);
}

// One thread per client CPU when pinned, else one: on a small machine the server needs the other cores.
function threadsFor(plan: LoadPlan): number {
  return Math.max(1, Math.min(plan.shape.connections, plan.cpus ? expandCpuList(plan.cpus).length : 1));
}

async function runWrk(plan: LoadPlan): Promise<LoadMeasurement> {
  const { shape, request } = plan;
  const wrk = engineBinary('wrk') ?? 'wrk';
  const dir = makePrivateDir('wrk');
  try {
    const threads = threadsFor(plan);
    const workload = plan.workload;
    const bodyFile = request.body && !workload ? path.join(dir, 'request-body') : undefined;
    if (bodyFile && request.body) writeFileSync(bodyFile, request.body);
    // a workload's one request may expect exact bytes (supportsWorkload lets no other body check through)
    const expected = workload ? workloadExpectedBody(workload) : plan.expect.kind === 'exact' ? plan.expect.bytes() : undefined;
    const expectedFile = expected ? path.join(dir, 'expected-body') : undefined;
    if (expectedFile && expected) writeFileSync(expectedFile, expected);
    const quotaPerThread = shape.requests !== undefined ? Math.ceil(shape.requests / threads) : 0;
    const script = path.join(dir, 'bench.lua');
    writeFileSync(
      script,
      wrkScript({
        request,
        ...(bodyFile ? { bodyFile } : {}),
        ...(expectedFile ? { expectedFile } : {}),
        quotaPerThread,
        close: !shape.keepAlive,
        ...(workload ? { workloadLua: wrkWorkloadLua(workload, threads, !shape.keepAlive) } : {}),
        ...(shape.pipelining !== undefined ? { pipelining: shape.pipelining } : {}),
      }),
    );
    // -n: wrk bounds runs by time only; each thread stops at its quota, and once every thread has, wrk is told to finish (SIGINT)
    const seconds = shape.requests !== undefined ? 24 * 3600 : Math.max(1, Math.round(shape.durationSeconds ?? 10));
    let threadsDone = 0;
    const started = Date.now();
    const progress = setInterval(() => plan.onProgress?.({ elapsedSeconds: (Date.now() - started) / 1000, requests: 0 }), 1000);
    const run = await runExternal(
      wrk,
      [
        '-t',
        String(threads),
        '-c',
        String(shape.connections),
        '-d',
        `${seconds}s`,
        '--timeout',
        `${Math.ceil(shape.timeoutSeconds)}s`,
        '-s',
        script,
        plan.url,
      ],
      {
        name: 'wrk',
        cwd: dir,
        ...(plan.cpus ? { cpus: plan.cpus } : {}),
        ...(plan.signal ? { signal: plan.signal } : {}),
        onLine: (line, interrupt) => {
          if (line === 'bench-wrk-thread-done' && ++threadsDone === threads) interrupt();
        },
      },
    ).finally(() => clearInterval(progress));
    const line = run.stdout.split('\n').find((l) => l.startsWith(REPORT_LINE));
    if (!line) throw errors.generatorFailed(`wrk printed no result (${run.exit.error ?? `exit ${run.exit.code}`}): ${run.outputTail}`);
    const r = JSON.parse(line.slice(REPORT_LINE.length)) as WrkReport;
    const [p50, p66, p75, p80, p90, p95, p98, p99, p999] = wrkPercentiles(r.latencyUs);
    const requests = shape.requests !== undefined ? r.answers : r.requests;
    const durationUs = shape.requests !== undefined && r.lastUs > r.firstUs ? r.lastUs - r.firstUs : r.durationUs;
    // the script's clock is CLOCK_MONOTONIC, the clock of process.hrtime
    const startedAtNs = BigInt(Math.round(r.baseUs)) * 1000n;
    const endUs = shape.requests !== undefined ? r.lastUs : Math.max(r.firstUs + r.durationUs, r.lastUs);
    const perSecond = wrkSeconds(r, startedAtNs, BigInt(Math.round(endUs)) * 1000n, run.clientCpuPerSecond(startedAtNs));
    const non2xx = Object.entries(r.statuses).reduce((sum, [code, n]) => (Number(code) >= 200 && Number(code) < 300 ? sum : sum + n), 0);
    return {
      durationSeconds: Math.max(durationUs / 1e6, 1e-6),
      requests,
      latency: {
        mean: ms(r.latencyUs.mean),
        stdev: ms(r.latencyUs.stdev),
        min: ms(r.latencyUs.min),
        p50: p50 ?? 0,
        p66: p66 ?? 0,
        p75: p75 ?? 0,
        p80: p80 ?? 0,
        p90: p90 ?? 0,
        p95: p95 ?? 0,
        p98: p98 ?? 0,
        p99: p99 ?? 0,
        p999: p999 ?? 0,
        max: ms(r.latencyUs.max),
      },
      // wrk's buckets: read errors are ab's receive failures, write errors count as exceptions, a timeout is both a failure and a timeout
      failures: {
        connect: r.errors.connect,
        receive: r.errors.read,
        length: r.lengthFailures,
        exceptions: r.errors.write + r.errors.timeout,
        timeouts: r.errors.timeout,
      },
      non2xx,
      statusCodes: r.statuses,
      bytes: { total: r.bytes, body: r.bodyBytes },
      keepAliveResponses: r.keptAlive,
      errorSamples: [],
      client: { cpuPercent: Math.round((r.cpuUs / Math.max(r.durationUs, 1)) * 1000) / 10, rssBytes: r.maxRssKb * 1024, processes: 1 },
      seconds: perSecond,
      startedAtNs,
      histogram: wrkHistogram(r.latencyUs.counts),
      ...(workload ? { sentByStep: r.sent } : {}),
    };
  } finally {
    removeDir(dir);
  }
}

/** wrk (Debian's wrk 4.1, LuaJIT): a C load generator; a Lua script checks every answer and reports. */
export const wrkEngine = {
  name: 'wrk',
  processNames: ['wrk'],
  countsWireBytes: true,
  // -p: its request() writes the request that many times at once (TFB's pipeline.lua)
  pipelines: true,
  description:
    'wrk 4.1 (C, epoll), closed loop; a Lua script counts statuses and checks every body; ' +
    "its seconds have answers, non-2xx and wrong bodies but no latency and no socket error (wrk's Lua sees neither per request)",
  // wrk as its users run it: one thread, its own summary
  bareTool: {
    command: (url, c, d) => ({ command: engineBinary('wrk') ?? 'wrk', args: ['-t1', `-c${c}`, `-d${d}s`, url] }),
    parse(stdout) {
      const rps = numberAfter(stdout, /^Requests\/sec:\s+([\d.]+)/m);
      const requests = numberAfter(stdout, /^\s*(\d+) requests in/m);
      return rps !== undefined && requests !== undefined ? { rps, requests } : undefined;
    },
  },
  async available() {
    const binary = engineBinary('wrk');
    if (!binary) return notInstalled(['wrk'], ['wrk']);
    return { ok: true, version: versionFrom(binary, ['--version'], /wrk (?:debian\/)?(\d[\w.-]*)/) };
  },
  supports(shape, _request, expect) {
    if ((shape.pipelining ?? 1) > 1 && !shape.keepAlive)
      return { ok: false, reason: '-p pipelines requests on a kept-alive connection; drop --no-keepalive or -p' };
    if (shape.requestsPerConnection !== undefined)
      return { ok: false, reason: 'wrk cannot close connections after n requests; --requests-per-connection needs the autocannon engine' };
    if (shape.rate !== undefined)
      return { ok: false, reason: 'wrk holds no arrival rate (wrk2 does); use --rate without --engine, or --engine k6' };
    if (expect.kind === 'matches' || expect.kind === 'json') {
      return {
        ok: false,
        reason: 'wrk checks bodies as exact bytes only; a regular expression or JSON subset needs the autocannon or k6 engine',
      };
    }
    return { ok: true };
  },
  // generated values and mixes of single requests through the script's request(); no flow (its Lua cannot tell which
  // connection an answer came on, so nothing can be captured or sent once per connection)
  workloads: { templates: true, flows: false, mixes: true, thinkTime: false },
  // wrk speaks TLS (OpenSSL) but checks no certificate
  protocols: ['http1', 'https'],
  verifiesCertificates: false,
  // what test/engines/conformance/ found it counting wrongly
  miscounts: {
    'interim answers': 'counts each interim answer (100, 103) as an answer of its own',
    'a body ended by the close': 'fails every answer whose body ends with the connection (no length, no chunked)',
    'a repeated Content-Length': 'fails an answer whose Content-Length is said twice or as a list',
    'no body after a length': 'miscounts the bodies of a 204 or a 304 that announces a length',
    'answers to no request': 'counts answers the server sent to no request as answers',
  },
  supportsWorkload(workload) {
    if (workload.data?.per === 'connection')
      return {
        ok: false,
        reason: "wrk's Lua cannot tell its connections apart: a data row per connection needs autocannon, the open loop or k6",
      };
    const steps = workload.cycle[0] ?? [];
    const checked = steps.filter((member) => {
      const e = member.steps[0]!.expect;
      return e.body !== undefined || e.bodyMatches !== undefined || e.json !== undefined;
    });
    if (steps.length > 1 && checked.length > 0)
      return {
        ok: false,
        reason: `wrk cannot tell which request of a mix an answer belongs to, so it cannot check ${checked[0]!.name}'s body: use autocannon, the open loop or k6`,
      };
    const e = steps[0]?.steps[0]?.expect;
    if (e && (e.bodyMatches !== undefined || e.json !== undefined))
      return {
        ok: false,
        reason: 'wrk checks bodies as exact bytes only; a regular expression or JSON subset needs the autocannon or k6 engine',
      };
    return { ok: true };
  },
  run: runWrk,
} satisfies LoadEngine;

/** The exact body a workload of one request expects, when it names one. */
function workloadExpectedBody(workload: Workload): Buffer | undefined {
  const members = workload.cycle[0] ?? [];
  const body = members.length === 1 ? members[0]!.steps[0]!.expect.body : undefined;
  return body !== undefined ? Buffer.from(body) : undefined;
}
