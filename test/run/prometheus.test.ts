import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findFreePort, type RunDocument } from '@bench/core';
import { repoRoot, runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// A real Prometheus (Debian's), started by the test on 127.0.0.1 with its remote-write receiver on, behind a password
// (its web config's basic auth, the hash made by Apache's htpasswd): bench sends it with --out-header.
const password = 'PROM-PASSWORD-7c1d';
const authorization = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let prometheus: ChildProcess | undefined;
afterEach(() => {
  prometheus?.kill('SIGKILL');
  prometheus = undefined;
});

async function startPrometheus(): Promise<string> {
  const dir = testTempDir('prometheus');
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(config, 'global:\n  scrape_interval: 1m\n');
  const web = path.join(dir, 'web.yml');
  const hash = execFileSync('htpasswd', ['-nbB', '-C', '4', 'bench', password], { encoding: 'utf8' }).trim().split(':')[1];
  writeFileSync(web, `basic_auth_users:\n  bench: ${hash}\n`);
  const port = await findFreePort();
  const base = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      `--web.config.file=${web}`,
      '--log.level=warn',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${base}/-/ready`, { headers: { authorization } }).then(
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
  const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(query)}`, { headers: { authorization } });
  const body = (await response.json()) as { data: { result: { values: [number, string][] }[] } };
  return (body.data.result[0]?.values ?? []).map(([t, v]) => [t, Number(v)]);
}

describe('--out prometheus=URL (remote write)', () => {
  it("sends every second of the run, two threads' shares merged, to a receiver behind a password it never writes", async () => {
    const base = await startPrometheus();
    const dir = testTempDir('prometheus-run');
    const results = path.join(dir, 'results.json');
    // runs at a held rate (wire's open loop) here: what is sent is the test, not how fast the node answers
    const args = [...'run hello -t node -c 5 -d 3 --rate 600 --warmup 0 --client-threads 2 -r json -o'.split(' '), results];
    const run = await runCli([...args, '--out', `prometheus=${base}/api/v1/write`, '--out-header', `Authorization: ${authorization}`]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/not taken|not sent/);
    const text = readFileSync(results, 'utf8');
    expect(text).not.toContain(authorization.slice('Basic '.length));
    const doc = JSON.parse(text) as RunDocument;
    const series = (doc.results[0]?.series ?? []).filter((p) => p.phase === 'measure');
    expect(run.stderr).toMatch(/bench: prometheus: \d+ points sent to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write\n/);
    const rps = await samplesOf(base, `bench_requests_per_second{run="${doc.startedAt}",target="node",concurrency="5"}[10m]`);
    expect(rps.map(([, v]) => v)).toEqual(series.map((p) => p.rps));
    // one point a second
    expect(rps.slice(1).map(([t], i) => Math.round(t - rps[i]![0]))).toEqual(series.slice(1).map(() => 1));
    // the percentiles of each second that has answers (the last sliver of a second may have none)
    expect(await samplesOf(base, `bench_latency_ms{run="${doc.startedAt}",quantile="0.99"}[10m]`)).toHaveLength(
      series.filter((p) => p.latency !== undefined).length,
    );
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
      [
        ...'run hello -t node -c 5 -d 5 --rate 500 --warmup 0 -r json -o'.split(' '),
        results,
        ...['--out', `prometheus=${base}/api/v1/write`, '--out-header', `Authorization: ${authorization}`],
      ],
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
    expect(doc.results[0]?.durationSeconds).toBeGreaterThan(4.9);
    expect(run.stderr).toMatch(/bench: prometheus: \d+ points sent to \S+, \d+ not sent \(/);
  });

  it("logs a refusal with the receiver's words, and goes on sending", async () => {
    // a receiver that refuses the first write (after bench's empty probe) as Prometheus does an out-of-order sample
    const bodies: number[] = [];
    const receiver = http.createServer((request, response) => {
      let size = 0;
      request.on('data', (chunk: Buffer) => (size += chunk.length));
      request.on('end', () => {
        bodies.push(size);
        if (bodies.length === 2) response.writeHead(400).end('out of order sample\n');
        else response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/api/v1/write`;
    try {
      const run = await runCli([...'run hello -t node -c 2 -d 3 --rate 300 --warmup 0 --out'.split(' '), `prometheus=${url}`]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(new RegExp(`bench: prometheus: \\d+ samples not taken by ${url}: 400 Bad Request: out of order sample\n`));
      expect(run.stderr).toMatch(
        new RegExp(`bench: prometheus: \\d+ points sent to ${url}, \\d+ not sent \\(400 Bad Request: out of order sample\\)`),
      );
      expect(bodies.length).toBeGreaterThan(2);
    } finally {
      receiver.close();
    }
  });

  it('refuses, before any load, a receiver that wants a password it was not given', async () => {
    const base = await startPrometheus();
    const run = await runCli([...'run hello -t node -c 2 -d 2 --out'.split(' '), `prometheus=${base}/api/v1/write`]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(/^bench: BENCH_ERR_USAGE: the Prometheus receiver \S+ cannot be used \(it answered 401 Unauthorized/);
  });

  it('refuses a receiver that is not there before any load, with one line', async () => {
    const port = await findFreePort();
    const run = await runCli([...'run hello -t node -c 5 -d 2 --out'.split(' '), `prometheus=http://127.0.0.1:${port}/api/v1/write`]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `bench: BENCH_ERR_USAGE: the Prometheus receiver http://127.0.0.1:${port}/api/v1/write cannot be used (ECONNREFUSED); start it with remote write on (prometheus --web.enable-remote-write-receiver) or leave it out`,
    );
  });
});
