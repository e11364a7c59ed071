import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  errors,
  expandCpuList,
  makePrivateDir,
  notInstalled,
  positiveIntegerOption,
  removeDir,
  versionFrom,
  type LoadEngine,
  type LoadMeasurement,
  type LoadPlan,
} from '@bench/core';
import { engineBinary } from '../engine-binary.js';
import { runExternal } from '../external-process.js';
import { readH2loadLog, summaryRow, trafficBytes } from './h2load-log.js';

/** h2load's own options, merged into `bench run`'s. */
const h2loadOptions = {
  streams: positiveIntegerOption({
    flags: '--streams <n>',
    description: 'HTTP/2 streams each h2load connection keeps open at once (h2load -m)',
    summary: 'opens several streams per connection',
    defaultText: '1',
    max: 1024,
  }),
};

const streamsOf = (options: LoadPlan['options']): number => (typeof options?.streams === 'number' ? options.streams : 1);

// One thread per client CPU when pinned, else one, as for wrk.
const threadsFor = (plan: LoadPlan) => Math.max(1, Math.min(plan.shape.connections, plan.cpus ? expandCpuList(plan.cpus).length : 1));

async function runH2load(plan: LoadPlan): Promise<LoadMeasurement> {
  const { shape, request } = plan;
  const h2load = engineBinary('h2load') ?? 'h2load';
  const dir = makePrivateDir('h2load');
  try {
    const logFile = path.join(dir, 'requests.log');
    const bodyFile = path.join(dir, 'body');
    if (request.body) writeFileSync(bodyFile, request.body);
    const protocol = plan.protocol ?? 'http1';
    const args = [
      '-c',
      String(shape.connections),
      '-t',
      String(threadsFor(plan)),
      '-m',
      String(streamsOf(plan.options)),
      ...(shape.requests !== undefined
        ? ['-n', String(shape.requests)]
        : ['-D', String(Math.max(1, Math.round(shape.durationSeconds ?? 10)))]),
      '-T',
      String(Math.ceil(shape.timeoutSeconds)),
      '--log-file',
      logFile,
      // HTTP/1.1 over either scheme; h2 by ALPN over TLS, h2c with prior knowledge in cleartext (h2load's defaults)
      ...(protocol === 'http1' || protocol === 'https' ? ['--h1'] : []),
      ...Object.entries(request.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
      ...(request.body ? ['-d', bodyFile] : []),
      plan.url,
    ];
    const run = await runExternal(h2load, args, {
      name: 'h2load',
      cwd: dir,
      ...(plan.cpus ? { cpus: plan.cpus } : {}),
      ...(plan.signal ? { signal: plan.signal } : {}),
    });
    if (!run.stdout.includes('requests:'))
      throw errors.generatorFailed(`h2load printed no result (${run.exit.error ?? `exit ${run.exit.code}`}): ${run.outputTail}`);
    const log = readH2loadLog(readFileSync(logFile, 'utf8'), run.clientCpuPerSecond(run.spawnedAtNs));
    const timedOut = Number(/(\d+) timeout/.exec(run.stdout)?.[1] ?? 0);
    const connect = summaryRow(run.stdout, 'time for connect');
    const firstByte = summaryRow(run.stdout, 'time to 1st byte');
    const spanUs = Math.max(log.lastEndUs - log.firstStartUs, 1);
    return {
      durationSeconds: shape.requests !== undefined ? spanUs / 1e6 : (shape.durationSeconds ?? spanUs / 1e6),
      requests: log.requests,
      ...log.measurement,
      failures: { connect: 0, receive: 0, length: 0, exceptions: log.failedStreams, timeouts: timedOut },
      non2xx: log.non2xx,
      statusCodes: log.statusCodes,
      bytes: trafficBytes(run.stdout),
      errorSamples: log.failedStreams > 0 ? [`h2load: ${log.failedStreams} streams failed`] : [],
      ...(run.client ? { client: run.client } : {}),
      // the log's clock is the epoch: its first start, on the hrtime clock the samplers use
      startedAtNs: run.spawnedAtNs + BigInt(Math.round((log.firstStartUs - run.spawnedAtMs * 1000) * 1000)),
      ...(connect && firstByte ? { connectionSetup: { connect, firstByte } } : {}),
    };
  } finally {
    removeDir(dir);
  }
}

/** h2load (nghttp2): HTTP/2 with many streams per connection, over TLS or cleartext (and HTTP/1.1 with --h1). */
export const h2loadEngine = {
  name: 'h2load',
  processNames: ['h2load'],
  countsWireBytes: true,
  description:
    "h2load (nghttp2, C), closed loop; HTTP/2 streams per connection (--streams); its per-request log read into bench's histogram",
  options: h2loadOptions,
  checksBodies: false,
  // -H on its command line, which /proc shows every user: a secret header is refused (choose-engine.ts)
  headersOnCommandLine: true,
  verifiesCertificates: false,
  protocols: ['http1', 'https', 'h2', 'h2c'],
  async available() {
    const binary = engineBinary('h2load');
    if (!binary) return notInstalled(['h2load'], ['nghttp2-client']);
    return { ok: true, version: versionFrom(binary, ['--version'], /nghttp2\/(\d[\w.-]*)/) };
  },
  supports(shape, request) {
    if (shape.rate !== undefined) return { ok: false, reason: 'h2load holds no arrival rate; use --rate without --engine, or --engine k6' };
    if (shape.requestsPerConnection !== undefined)
      return {
        ok: false,
        reason: 'h2load cannot close connections after n requests; --requests-per-connection needs the autocannon engine',
      };
    if (!shape.keepAlive) return { ok: false, reason: 'h2load keeps its connections open; --no-keepalive needs autocannon, wrk, ab or k6' };
    if (request.method !== 'GET' && !(request.method === 'POST' && request.body))
      return { ok: false, reason: `h2load sends GET, or POST with a body (-d); ${request.method} needs another engine` };
    return { ok: true };
  },
  run: runH2load,
} satisfies LoadEngine;
