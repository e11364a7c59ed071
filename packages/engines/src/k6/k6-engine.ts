import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  errors,
  findFreePort,
  LOOPBACK,
  makePrivateDir,
  removeDir,
  workloadSteps,
  type LoadEngine,
  type LoadMeasurement,
  type LoadPlan,
  type ResourceSample,
} from '@bench/core';
import { versionFrom } from '@bench/core';
import { runExternal, type ExternalRun } from '../external-process.js';
import { K6Api } from './k6-api.js';
import { k6Binary, K6_INSTALL } from './k6-binary.js';
import { createK6Tally, readK6Csvs } from './k6-samples.js';
import { k6Script } from './k6-script.js';
import { k6WorkloadScript } from './k6-workload-script.js';
import { k6Refusals } from './k6-refusals.js';
import { executionSegments, segmentFlags } from './segments.js';
import { k6Exporter } from './export/k6-exporter.js';
import { generatorsOf, k6Options } from './k6-options.js';
import { k6Measurement, k6OutputFlags } from './k6-measurement.js';

/** The instances' CPU, second by second, added up. */
function sumPerSecond(runs: readonly ExternalRun[], startNs: bigint): number[] {
  const sum: number[] = [];
  for (const run of runs) run.clientCpuPerSecond(startNs).forEach((cpu, i) => (sum[i] = Math.round(((sum[i] ?? 0) + cpu) * 10) / 10));
  return sum;
}

function sumClients(runs: readonly ExternalRun[]): ResourceSample | undefined {
  const samples = runs.map((r) => r.client).filter((c): c is ResourceSample => c !== undefined);
  if (samples.length === 0) return undefined;
  return {
    cpuPercent: Math.round(samples.reduce((s, c) => s + c.cpuPercent, 0) * 10) / 10,
    rssBytes: samples.reduce((s, c) => s + c.rssBytes, 0),
    processes: samples.reduce((s, c) => s + c.processes, 0),
  };
}

const READY_MS = 30_000;

async function runK6(plan: LoadPlan): Promise<LoadMeasurement> {
  const k6 = k6Binary() ?? 'k6';
  const generators = generatorsOf(plan.options);
  const dir = makePrivateDir('k6');
  try {
    const script = path.join(dir, 'script.js');
    writeFileSync(
      script,
      plan.workload
        ? k6WorkloadScript({ baseUrl: new URL(plan.url).origin, workload: plan.workload, shape: plan.shape })
        : k6Script({ url: plan.url, request: plan.request, expect: plan.expect, shape: plan.shape }),
    );
    const ports = await Promise.all(Array.from({ length: generators }, () => findFreePort()));
    const apis = ports.map((port) => new K6Api(`${LOOPBACK}:${port}`));
    const csvFiles = ports.map((_, i) => path.join(dir, `samples-${i}.csv`));
    const stop = new AbortController();
    const abort = () => stop.abort();
    plan.signal?.addEventListener('abort', abort, { once: true });
    if (plan.signal?.aborted) abort();
    const exited = ports.map(() => false);
    // each instance starts paused, so none runs ahead while the others are still initialising
    const runs = ports.map((port, i) =>
      runExternal(
        k6,
        [
          'run',
          '--quiet',
          '--paused',
          '--address',
          `${LOOPBACK}:${port}`,
          ...k6OutputFlags(csvFiles[i] ?? ''),
          ...segmentFlags(i, generators),
          script,
        ],
        {
          name: 'k6',
          cwd: dir,
          signal: stop.signal,
          ...(plan.cpus ? { cpus: plan.cpus } : {}),
          // Go trusts the roots in SSL_CERT_FILE: k6 verifies a TLS server against the run's CA alone
          ...(plan.caFile ? { env: { SSL_CERT_FILE: plan.caFile } } : {}),
        },
      ).finally(() => (exited[i] = true)),
    );
    let progress: NodeJS.Timeout | undefined;
    // the moment the instances are released, on both clocks: second 0 of the run's samples (epoch) and of the samplers (hrtime)
    let startedAtNs = 0n;
    let started = 0;
    try {
      await Promise.all(apis.map((api, i) => api.ready(READY_MS, () => !exited[i])));
      startedAtNs = process.hrtime.bigint();
      started = Date.now();
      await Promise.all(apis.map((api) => api.resume()));
      progress = setInterval(() => {
        void Promise.all(apis.map((api) => api.requests())).then((counts) =>
          plan.onProgress?.({ elapsedSeconds: (Date.now() - started) / 1000, requests: counts.reduce((a, b) => a + b, 0) }),
        );
      }, 1000);
    } catch (error) {
      stop.abort();
      const finished = await Promise.all(runs);
      plan.signal?.removeEventListener('abort', abort);
      throw errors.generatorFailed(
        `k6 did not start: ${(error as Error).message}; ${finished
          .map((r) => r.outputTail)
          .filter(Boolean)
          .join(' | ')}`,
      );
    }
    const finished = await Promise.all(runs).finally(() => {
      clearInterval(progress);
      plan.signal?.removeEventListener('abort', abort);
    });
    const failed = finished.find((r) => r.exit.code !== 0 && !plan.signal?.aborted);
    if (failed)
      throw errors.generatorFailed(
        `k6 failed (${failed.exit.error ?? `exit ${failed.exit.code ?? failed.exit.signal}`}): ${failed.outputTail}`,
      );
    const tally = createK6Tally(started * 1000, {
      inOrder: true,
      ...(plan.workload
        ? { steps: workloadSteps(plan.workload).map((step) => step.name), refusals: k6Refusals(plan.workload).map((r) => r.message) }
        : {}),
    });
    await readK6Csvs(csvFiles, tally);
    const client = sumClients(finished);
    return {
      ...k6Measurement(tally, sumPerSecond(finished, startedAtNs)),
      startedAtNs,
      ...(client ? { client } : {}),
      ...(generators > 1 ? { generators: { count: generators, segments: executionSegments(generators), sharedHost: true } } : {}),
    };
  } finally {
    removeDir(dir);
  }
}

/** k6 (Grafana's Go load generator), one or many instances splitting one run by execution segments. */
export const k6Engine = {
  name: 'k6',
  processNames: ['k6'],
  countsWireBytes: true,
  description:
    'k6 (Go), closed loop or constant arrival rate; raw samples merged into one histogram, one run split over --generators instances',
  splitsLoad: true,
  // what test/engines/conformance/ found Go's client counting wrongly
  miscounts: {
    'a repeated Content-Length': 'fails an answer whose Content-Length is said as a list ("11, 11")',
    'answers to no request': 'names no failure when a server sends answers to no request',
  },
  // a VU is a virtual user: once steps, captures, mixes and think time in the generated script (the export's too)
  workloads: { templates: true, flows: true, mixes: true, thinkTime: true },
  // over TLS k6 negotiates HTTP/2 by ALPN when the server offers it (an h2 target offers only h2)
  protocols: ['http1', 'https', 'h2'],
  options: k6Options,
  exporter: k6Exporter,
  async available() {
    const binary = k6Binary();
    if (!binary)
      return {
        ok: false,
        reason: `k6 not found: install it with \`${K6_INSTALL}\` (Go's bin directory on PATH, or BENCH_K6_BINARY=/path/to/k6)`,
      };
    return { ok: true, version: versionFrom(binary, ['version'], /k6 v?(\d[\w.-]*)/) };
  },
  supports(shape, _request, _expect, options) {
    if (shape.requestsPerConnection !== undefined)
      return { ok: false, reason: 'k6 cannot close connections after n requests; --requests-per-connection needs the autocannon engine' };
    const generators = generatorsOf(options);
    if (generators > shape.connections)
      return {
        ok: false,
        reason: `--generators ${generators} splits the connections between k6 processes: -c must be at least ${generators} at every level`,
      };
    return { ok: true };
  },
  run: runK6,
} satisfies LoadEngine;
