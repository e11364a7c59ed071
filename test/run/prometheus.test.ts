import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunDocument } from '@bench/core';
import { repoRoot, runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// A real Prometheus (Debian's), started by the test on 127.0.0.1 with its remote-write receiver on.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let prometheus: ChildProcess | undefined;
afterEach(() => {
  prometheus?.kill('SIGKILL');
  prometheus = undefined;
});

async function startPrometheus(): Promise<string> {
  const dir = testTempDir('prometheus');
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(config, 'global:\n  scrape_interval: 1m\n');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      '--log.level=warn',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${base}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return base;
    if (Date.now() > deadline) throw new Error('Prometheus did not become ready in 30 s');
    await sleep(100);
  }
}

/** Every sample of a series of the run, by its time (s): an instant query over a range vector returns them all. */
async function samplesOf(base: string, query: string): Promise<[number, number][]> {
  const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await response.json()) as { data: { result: { values: [number, string][] }[] } };
  return (body.data.result[0]?.values ?? []).map(([t, v]) => [t, Number(v)]);
}

describe('--out prometheus=URL (remote write)', () => {
  it('sends every second of the run: a query for its run id returns the per-second rps of the results file', async () => {
    const base = await startPrometheus();
    const dir = testTempDir('prometheus-run');
    const results = path.join(dir, 'results.json');
    const args = [...'run hello -t node -c 5 -d 4 --warmup 0 -r json -o'.split(' '), results];
    const run = await runCli([...args, '--out', `prometheus=${base}/api/v1/write`]);
    expect(run.code).toBe(0);
    const doc = JSON.parse(readFileSync(results, 'utf8')) as RunDocument;
    const series = (doc.results[0]?.series ?? []).filter((p) => p.phase === 'measure');
    expect(run.stderr).toMatch(/bench: prometheus: \d+ points sent to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write\n/);
    const rps = await samplesOf(base, `bench_requests_per_second{run="${doc.startedAt}",target="node",concurrency="5"}[10m]`);
    expect(rps.map(([, v]) => v)).toEqual(series.map((p) => p.rps));
    // one point a second
    expect(rps.slice(1).map(([t], i) => Math.round(t - rps[i]![0]))).toEqual(series.slice(1).map(() => 1));
    expect(await samplesOf(base, `bench_latency_ms{run="${doc.startedAt}",quantile="0.99"}[10m]`)).toHaveLength(series.length);
    expect(await samplesOf(base, `bench_server_cpu_percent{run="${doc.startedAt}"}[10m]`)).toHaveLength(series.length);

    // every panel of the Grafana dashboard that ships with bench draws from what the run sent
    const dashboard = JSON.parse(readFileSync(path.join(repoRoot, 'docs', 'grafana', 'bench-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const empty = [];
    for (const panel of dashboard.panels)
      for (const { expr } of panel.targets)
        if ((await samplesOf(base, `(${expr.replaceAll('$run', doc.startedAt)})[10m:1s]`)).length === 0) empty.push(panel.title);
    expect(empty).toEqual([]);
  });

  it('keeps the run whole when the receiver stops halfway, and says how many points were not sent', async () => {
    const base = await startPrometheus();
    const dir = testTempDir('prometheus-gone');
    const results = path.join(dir, 'results.json');
    const run = await runCli(
      [...'run hello -t node -c 5 -d 6 --warmup 0 -r json -o'.split(' '), results, '--out', `prometheus=${base}/api/v1/write`],
      {
        onSpawn: (_child, output) => {
          void (async () => {
            while (!/\[1\/1\] hello node c=5/.test(output())) await sleep(20);
            await sleep(2500);
            prometheus?.kill('SIGKILL');
          })();
        },
      },
    );
    expect(run.code).toBe(0);
    const doc = JSON.parse(readFileSync(results, 'utf8')) as RunDocument;
    expect(doc.complete).toBe(true);
    expect(doc.results[0]?.status).toBe('ok');
    expect(doc.results[0]?.durationSeconds).toBeGreaterThan(5.9);
    expect(run.stderr).toMatch(/bench: prometheus: \d+ points sent to \S+, \d+ not sent \(/);
  });

  it('refuses a receiver that is not there before any load, with one line', async () => {
    const port = await freePort();
    const run = await runCli([...'run hello -t node -c 5 -d 2 --out'.split(' '), `prometheus=http://127.0.0.1:${port}/api/v1/write`]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `bench: BENCH_ERR_USAGE: the Prometheus receiver http://127.0.0.1:${port}/api/v1/write cannot be used (ECONNREFUSED); start it with remote write on (prometheus --web.enable-remote-write-receiver) or leave it out`,
    );
  });
});
