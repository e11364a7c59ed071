import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunDocument } from '@bench/core';
import { runCli } from '../support/cli.js';
import { startCollector, type Collector } from '../support/otel-collector.js';
import { testTempDir } from '../support/temp-dir.js';

// A real OpenTelemetry Collector (scripts/setup/build-otelcol.sh), started by the test, its OTLP receiver behind a token.
const token = 'OTLP-TOKEN-5f2e9a';

describe('--out otlp=URL (OTLP/HTTP, protobuf)', () => {
  let collector: Collector;
  beforeAll(async () => {
    collector = await startCollector(token);
  }, 600_000);
  afterAll(() => collector?.stop());

  it('sends every second of the run with its labels to a receiver behind a token, and writes the token nowhere', async () => {
    const dir = testTempDir('otlp-run');
    const results = path.join(dir, 'results.json');
    const run = await runCli([
      // at a held rate (wire's open loop): what is sent is the test, not how fast the node answers
      ...'run hello -t node -c 4 -d 4 --rate 400 --warmup 0 --client-threads 2 -r json -o'.split(' '),
      results,
      ...['--out', `otlp=${collector.base}`, '--out-header', `Authorization: Bearer ${token}`],
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/bench: otlp: \d+ points sent to http:\/\/127\.0\.0\.1:\d+\/v1\/metrics\n/);
    const text = readFileSync(results, 'utf8');
    expect(text).not.toContain(token);
    const doc = JSON.parse(text) as RunDocument;
    const series = (doc.results[0]?.series ?? []).filter((p) => p.phase === 'measure');
    const labels = { run: doc.startedAt, scenario: 'hello', target: 'node', concurrency: '4', engine: 'wire' };
    // the file exporter flushes every 100 ms
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ofRun = collector.points().filter((p) => p.attributes['run'] === doc.startedAt);
    const rps = ofRun.filter((p) => p.name === 'bench_requests_per_second').sort((a, b) => a.timeMs - b.timeMs);
    expect(rps.map((p) => p.attributes)).toEqual(series.map(() => labels));
    expect(rps.map((p) => p.value)).toEqual(series.map((p) => p.rps));
    expect(rps.slice(1).map((p, i) => p.timeMs - rps[i]!.timeMs)).toEqual(series.slice(1).map(() => 1000));
    for (const name of ['bench_failures', 'bench_timeouts', 'bench_non2xx'])
      expect(ofRun.filter((p) => p.name === name).length, name).toBe(series.length);
    // the resources of each second that has a reading of them
    expect(ofRun.filter((p) => p.name === 'bench_server_cpu_percent').length).toBe(series.filter((p) => p.server).length);
    expect(ofRun.filter((p) => p.name === 'bench_generator_cpu_percent').length).toBe(series.filter((p) => p.client).length);
    // and the percentiles of each second that has answers (the run's last sliver of a second may have none: a
    // clean-clone CI run's had none, and 4 of its 5 seconds had percentiles)
    expect(ofRun.filter((p) => p.name === 'bench_latency_ms' && p.attributes['quantile'] === '0.99')).toHaveLength(
      series.filter((p) => p.latency !== undefined).length,
    );
  });

  it('refuses, before any load, a receiver that wants a token it was not given', async () => {
    const run = await runCli([...'run hello -t node -c 2 -d 2 --out'.split(' '), `otlp=${collector.base}`]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(
      new RegExp(
        `^bench: BENCH_ERR_USAGE: the OTLP receiver ${collector.base}/v1/metrics cannot be used \\(it answered 401 Unauthorized.*\\); start`,
      ),
    );
  });
});
