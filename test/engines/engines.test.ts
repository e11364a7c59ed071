import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyExpectation, LoadEngine, LoadShape, RunningTarget } from '@bench/core';
import { builtinEngines, builtinScenarios, defaultEngineName } from '@bench/runner';
import { builtinTargets } from '@bench/targets';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// Every closed-loop engine against the same real servers: a Node target started by bench, and a
// small server in this process that answers with a wrong body, a 404, or Connection: close.
const hello = Buffer.from('Hello World');
const expectHello: BodyExpectation = { kind: 'exact', length: hello.length, bytes: () => hello };
const closedLoop: LoadShape = { connections: 4, requests: 100, keepAlive: true, timeoutSeconds: 5 };
const getHello = { method: 'GET', path: '/', headers: {} } as const;
// Every engine of the registry that drives one closed loop from one process and checks bodies under load; an engine
// that splits a run over generators (k6) has its own file, test/k6.test.ts, and h2load (no body seen) its own.
const engines = builtinEngines.filter((e) => !e.splitsLoad && e.checksBodies !== false && e.supports(closedLoop, getHello, expectHello).ok);
const commandLineEngines = engines.filter((e) => e.name !== defaultEngineName({}));

let node: RunningTarget;
let misc: http.Server;
let miscUrl = '';
let miscConnections = 0;
let deepest = 0;
const heldBy = new WeakMap<object, number>();

beforeAll(async () => {
  const scenario = builtinScenarios().find((s) => s.name === 'hello')!;
  node = await builtinTargets.find((t) => t.name === 'node')!.start(scenario, { services: {} });
  misc = http.createServer((req, res) => {
    if (req.url === '/pipelined') {
      // how many requests of one connection the server holds at once: more than one only when the client pipelines
      const held = (heldBy.get(req.socket) ?? 0) + 1;
      heldBy.set(req.socket, held);
      deepest = Math.max(deepest, held);
      return setTimeout(() => {
        heldBy.set(req.socket, (heldBy.get(req.socket) ?? 1) - 1);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('Hello World');
      }, 1);
    }
    if (req.url === '/short') return res.writeHead(200, { 'content-type': 'text/plain' }).end('Hello');
    if (req.url === '/close') return res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('Hello World');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Hello World');
  });
  misc.on('connection', () => miscConnections++);
  await new Promise<void>((resolve) => misc.listen(0, '127.0.0.1', resolve));
  miscUrl = `http://127.0.0.1:${(misc.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await node?.stop();
  await new Promise<void>((resolve) => misc.close(() => resolve()));
});

const get = (engine: LoadEngine, url: string, shape: Partial<LoadShape>, expect: BodyExpectation = expectHello) =>
  engine.run({
    url,
    request: { method: 'GET', path: new URL(url).pathname, headers: {} },
    expect,
    shape: { connections: 4, keepAlive: true, timeoutSeconds: 5, ...shape },
  });

describe.each(engines.filter((e) => e.pipelines).map((e) => [e.name, e] as const))('engine %s with -p', (_name, engine) => {
  it('keeps that many requests in flight on each connection, every answer counted and checked', async () => {
    deepest = 0;
    const m = await get(engine, `${miscUrl}/pipelined`, { connections: 2, requests: 320, pipelining: 16 });
    expect(m.requests).toBeGreaterThanOrEqual(320);
    expect(m.failures).toMatchObject({ connect: 0, receive: 0, length: 0, exceptions: 0 });
    expect(deepest).toBe(16);
  });
});

describe.each(engines.map((e) => [e.name, e] as const))('engine %s', (_name, engine) => {
  it('is installed and says its version', async () => {
    const a = await engine.available();
    expect(a.ok).toBe(true);
    expect(a.version).toMatch(/\d/);
  });

  it("-n: counts exactly that many answers, every body checked, the generator's CPU by its pid", async () => {
    // enough answers that a generator of its own process outlives the sampler's early looks on a loaded machine (ab
    // answered 1,000 before a CI run's sampler saw it once)
    const m = await get(engine, `${node.url}/`, { requests: 5000 });
    expect(m.requests).toBe(5000);
    expect(m.failures).toMatchObject({ connect: 0, receive: 0, length: 0, exceptions: 0 });
    expect(m.non2xx).toBe(0);
    expect(m.bytes.body).toBe(55_000);
    expect(m.keepAliveResponses).toBe(5000);
    expect(m.latency.p99).toBeGreaterThanOrEqual(m.latency.p50);
    expect(m.client?.processes).toBeGreaterThanOrEqual(1);
  });

  it('-d: runs for the duration, without keep-alive a connection per request', async () => {
    const m = await get(engine, `${node.url}/`, { durationSeconds: 1, keepAlive: false });
    expect(m.durationSeconds).toBeGreaterThan(0.9);
    expect(m.durationSeconds).toBeLessThan(1.5);
    expect(m.requests).toBeGreaterThan(100);
    expect(m.keepAliveResponses ?? 0).toBe(0);
    expect(m.failures.length).toBe(0);
  });

  it('counts a wrong body as a length failure, and a 404 as non-2xx', async () => {
    const wrong = await get(engine, `${miscUrl}/short`, { requests: 100 });
    expect(wrong.failures.length).toBe(100);
    const missing = await get(engine, `${miscUrl}/missing`, { requests: 100 });
    expect(missing.non2xx).toBe(100);
    expect(missing.failures.length).toBe(0);
  });

  it('opens a new connection when the server says Connection: close, and fails nothing', async () => {
    miscConnections = 0;
    const m = await get(engine, `${miscUrl}/close`, { requests: 200 });
    expect(m.requests).toBe(200);
    expect(m.failures).toMatchObject({ connect: 0, receive: 0, length: 0, exceptions: 0 });
    expect(miscConnections).toBeGreaterThanOrEqual(200);
  });

  it('counts refused connections as connect failures', async () => {
    // port 1: privileged, and outside the range the kernel hands out, so no server of a test running beside this one takes it
    const port = 1;
    const m = await get(engine, `http://127.0.0.1:${port}/`, { durationSeconds: 1, connections: 1 }).catch((error: Error) => error);
    if (engine.name === 'wrk') {
      // wrk checks the address before it starts and stops there: the cell fails with wrk's own words
      expect(m instanceof Error && m.message).toMatch(
        /wrk printed no result \(exit 1\): unable to connect to 127\.0\.0\.1:\d+ Connection refused/,
      );
    } else if (m instanceof Error) {
      throw m;
    } else {
      expect(m.requests).toBe(0);
      // ab finds a refused non-blocking connect when it reads, and counts it under Receive (as ab prints it)
      expect(m.failures.connect + m.failures.receive).toBeGreaterThan(0);
    }
  });
});

describe('engines from the command line', () => {
  // by count: what is asked is the table's shape and the engine's name, not seconds of load
  it.each(commandLineEngines.map((e) => e.name))('%s: the same table shape, engine recorded', async (engine) => {
    const run = await runCli([
      'run',
      'hello',
      '-t',
      'node',
      '-c',
      '4',
      '-n',
      '200',
      '-w',
      '0',
      '--engine',
      engine,
      '--reporter',
      'markdown',
      '--reporter',
      'json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\| node \| 4 \| [\d,.]+ \|/m);
    expect(run.stdout).toMatch(new RegExp(`"engine": \\{\\s+"name": "${engine}"`));
  });

  it("--reporter ab prints ab's Connection Times when the engine is ab", async () => {
    const run = await runCli(['run', 'hello', '-t', 'node', '-c', '4', '-n', '500', '-w', '0', '--engine', 'ab', '--reporter', 'ab']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Connect: +\d+ +\d+ +[\d.]+ +\d+ +\d+$/m);
    expect(run.stdout).toMatch(/^Waiting: +\d+ +\d+ +[\d.]+ +\d+ +\d+$/m);
    expect(run.stdout).not.toMatch(/n\/a/);
  });

  // the engines that launch a program of their own (the in-process ones have none to miss)
  it.each(commandLineEngines.filter((e) => (e.processNames ?? []).length > 0).map((e) => [e.name, e] as const))(
    'a missing %s binary is one line naming the package, exit 2',
    async (name, engine) => {
      const override = `BENCH_${name.toUpperCase()}_BINARY`;
      process.env[override] = '/nonexistent/bin';
      const missing = await engine.available().finally(() => delete process.env[override]);
      expect(missing.ok).toBe(false);
      const install = `apt-get install ${missing.aptPackages?.join(' ')}`;
      const run = await runCli(['run', 'hello', '-t', 'node', '--engine', name], { env: { [override]: '/nonexistent/bin' } });
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^bench: BENCH_ERR_ENGINE_UNAVAILABLE: engine "${name}" is not available: .*\\(${install}\\)$`)),
      ]);
    },
  );

  it('an engine that cannot drive the run says so before anything starts', async () => {
    const rate = await runCli(['run', 'hello', '-t', 'node', '--engine', 'wrk', '--rate', '100']);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toMatch(/^bench: BENCH_ERR_ENGINE_UNSUPPORTED: engine "wrk" cannot do this: wrk holds no arrival rate/m);
    const dir = testTempDir('engine-json');
    writeFileSync(
      path.join(dir, 'bench.config.json'),
      JSON.stringify({
        targets: [{ name: 'api', url: 'http://127.0.0.1:9' }],
        scenarios: [{ name: 'items', path: '/items', expect: { json: { ok: true } } }],
      }),
    );
    const json = await runCli(['run', '--engine', 'ab'], { cwd: dir });
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(
      /engine "ab" cannot do this: ab checks answers by length only; a regular expression or JSON subset needs the autocannon or k6 engine/,
    );
  });
});
