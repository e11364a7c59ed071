import { errors } from '@bench/core';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makePrivateDir, removeDir, type LoadEngine, type LoadMeasurement, type LoadPlan } from '@bench/core';
import { notInstalled, versionFrom } from '@bench/core';
import { createLatencyHistogram, encodeLatencyHistogram, summarizeLatency } from '@bench/core';
import { engineBinary } from '../engine-binary.js';
import { numberAfter } from '../bare-tool.js';
import { runExternal } from '../external-process.js';
import { parseAbOutput, type AbBlock } from './ab-output.js';
import { abSeries } from './ab-series.js';

// ab keeps one record per request, allocated up front for -n; a -t run needs an -n it will not reach.
const MAX_RATE_PER_SECOND = 100_000;

function abArgs(plan: LoadPlan, dir: string): string[] {
  const { shape, request } = plan;
  const args = [
    '-c',
    String(shape.connections),
    '-s',
    String(Math.ceil(shape.timeoutSeconds)),
    '-g',
    path.join(dir, 'requests.tsv'),
    '-r',
    '-q',
  ];
  // ab reads -t as whole seconds (atoi: -t 0.1 would mean no limit, and -n requests), so a fraction rounds up
  const seconds = Math.max(1, Math.ceil(shape.durationSeconds ?? 10));
  if (shape.requests !== undefined) args.push('-n', String(shape.requests));
  else args.push('-t', String(seconds), '-n', String(seconds * MAX_RATE_PER_SECOND));
  if (shape.keepAlive) args.push('-k');
  // a body that may change from answer to answer: ab must not count a different length as a failure
  if (plan.expect.kind !== 'exact') args.push('-l');
  let contentType: string | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-type') contentType = value;
    else args.push('-H', `${name}: ${value}`);
  }
  if (request.body) {
    const file = path.join(dir, 'request-body');
    writeFileSync(file, request.body);
    args.push(request.method === 'PUT' ? '-u' : '-p', file, '-T', contentType ?? 'application/octet-stream');
  } else if (request.method !== 'GET') {
    args.push('-m', request.method);
  }
  return [...args, plan.url];
}

/**
 * ab counts a body as failed when its length differs from the first answer's. bench knows the
 * expected length: when the first answer had another, the answers that matched it failed too
 * (and, when the bytes received show that the rest had the expected length, only those).
 */
function lengthFailures(block: AbBlock, plan: LoadPlan): number {
  if (plan.expect.kind !== 'exact' || block.documentLength === plan.expect.length) return block.failed.length;
  const likeFirst = block.complete - block.failed.length;
  const restExpected = block.htmlBytes === likeFirst * block.documentLength + block.failed.length * plan.expect.length;
  return likeFirst + (restExpected ? 0 : block.failed.length);
}

async function runAb(plan: LoadPlan): Promise<LoadMeasurement> {
  const dir = makePrivateDir('ab');
  try {
    const started = Date.now();
    const progress = setInterval(() => plan.onProgress?.({ elapsedSeconds: (Date.now() - started) / 1000, requests: 0 }), 1000);
    const run = await runExternal(engineBinary('ab') ?? 'ab', abArgs(plan, dir), {
      name: 'ab',
      cwd: dir,
      ...(plan.cpus ? { cpus: plan.cpus } : {}),
      ...(plan.signal ? { signal: plan.signal } : {}),
    }).finally(() => clearInterval(progress));
    const block = parseAbOutput(run.stdout);
    if (!block) throw errors.generatorFailed(`ab printed no report (${run.exit.error ?? `exit ${run.exit.code}`}): ${run.outputTail}`);
    // percentiles from ab's own per-request records (-g), in the whole milliseconds ab writes
    const histogram = createLatencyHistogram();
    let tsv = '';
    try {
      tsv = readFileSync(path.join(dir, 'requests.tsv'), 'utf8');
    } catch {
      // no request finished
    }
    const series = abSeries(tsv, run, block.timeTakenSeconds, histogram);
    const latency = summarizeLatency(histogram);
    const encoded = encodeLatencyHistogram(histogram);
    histogram.destroy();
    // ab's "Complete requests" includes attempts that failed to connect or read: answers are the rest
    const answered = Math.max(0, block.complete - block.failed.connect - block.failed.receive - block.failed.exceptions);
    const ok = Math.max(0, answered - block.non2xx);
    return {
      durationSeconds: Math.max(block.timeTakenSeconds, 1e-6),
      requests: answered,
      latency,
      failures: {
        ...block.failed,
        length: lengthFailures(block, plan),
        exceptions: block.failed.exceptions + block.writeErrors,
        timeouts: 0,
      },
      non2xx: block.non2xx,
      // ab counts answers outside 2xx, not each status
      statusCodes: { ...(ok > 0 ? { '2xx': ok } : {}), ...(block.non2xx > 0 ? { 'non-2xx': block.non2xx } : {}) },
      bytes: { total: block.totalBytes, body: block.htmlBytes },
      keepAliveResponses: block.keepAlive,
      errorSamples: [],
      ...(block.connectionTimes ? { connectionTimes: block.connectionTimes } : {}),
      ...(run.client ? { client: run.client } : {}),
      ...(series ? { seconds: series.seconds, startedAtNs: series.startedAtNs } : {}),
      histogram: encoded,
    };
  } finally {
    removeDir(dir);
  }
}

/** ApacheBench, the articles' own tool: its full report parsed, Connect/Processing/Waiting included. */
export const abEngine = {
  name: 'ab',
  processNames: ['ab'],
  countsWireBytes: true,
  // ab speaks TLS (OpenSSL) but checks no certificate
  protocols: ['http1', 'https'],
  // -H on its command line, which /proc shows every user: a secret header is refused (choose-engine.ts)
  headersOnCommandLine: true,
  verifiesCertificates: false,
  // what test/engines/conformance/ found it counting wrongly
  miscounts: {
    'interim answers': 'miscounts the bodies of answers after an interim one (100, 103) as wrong lengths',
    'answers to no request': 'names no failure when a server sends answers to no request',
  },
  description:
    'ApacheBench 2.3 (HTTP/1.0, -k for keep-alive), closed loop; its Connection Times and per-request records ' +
    '(seconds by request start; the records carry no status or failure, so non-2xx and failures are totals only)',
  // ab with keep-alive for a time (-n only caps it), quiet
  bareTool: {
    command: (url, c, d) => ({
      command: engineBinary('ab') ?? 'ab',
      args: ['-k', '-c', String(c), '-t', String(d), '-n', String(d * 100_000), '-q', url],
    }),
    parse(stdout) {
      const rps = numberAfter(stdout, /^Requests per second:\s+([\d.]+)/m);
      const requests = numberAfter(stdout, /^Complete requests:\s+(\d+)/m);
      return rps !== undefined && requests !== undefined ? { rps, requests } : undefined;
    },
  },
  async available() {
    const binary = engineBinary('ab');
    if (!binary) return notInstalled(['ab'], ['apache2-utils']);
    return { ok: true, version: versionFrom(binary, ['-V'], /Version (\d[\d.]*)/) };
  },
  supports(shape, request, expect) {
    if (shape.requestsPerConnection !== undefined)
      return { ok: false, reason: 'ab cannot close connections after n requests; --requests-per-connection needs the autocannon engine' };
    if (shape.rate !== undefined) return { ok: false, reason: 'ab holds no arrival rate; use --rate without --engine, or --engine k6' };
    if (request.body && request.method !== 'POST' && request.method !== 'PUT')
      return { ok: false, reason: `ab sends a body with POST or PUT only, not ${request.method}` };
    if (expect.kind === 'matches' || expect.kind === 'json') {
      return {
        ok: false,
        reason: 'ab checks answers by length only; a regular expression or JSON subset needs the autocannon or k6 engine',
      };
    }
    return { ok: true };
  },
  run: runAb,
} satisfies LoadEngine;
