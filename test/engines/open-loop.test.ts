import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyExpectation } from '@bench/core';
import { builtinEngines } from '@bench/runner';
import { runCli, waitForText } from '../support/cli.js';

// A server in a process of its own that stalls once: 1.5 s after its first request it blocks its
// event loop for 1 s, answering nothing, then carries on.
const STALLING_SERVER = `
const http = require('node:http');
let first = 0, stalled = false;
http.createServer((q, r) => {
  const now = Date.now();
  if (!first) first = now;
  if (!stalled && now - first > 1500) { stalled = true; const until = Date.now() + 1000; while (Date.now() < until); }
  r.writeHead(200, { 'content-type': 'text/plain' }); r.end('Hello World');
}).listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });
`;

// And one that takes 5 ms over every answer.
const SLOW_SERVER = `
require('node:http').createServer((q, r) => setTimeout(() => { r.writeHead(200, { 'content-type': 'text/plain' }); r.end('Hello World'); }, 5))
  .listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });
`;

const servers: ChildProcess[] = [];
async function startServer(script: string): Promise<string> {
  const server = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  servers.push(server);
  let out = '';
  server.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  await waitForText(() => out, /port \d+/);
  return `http://127.0.0.1:${/port (\d+)/.exec(out)?.[1]}/`;
}

let slowUrl = '';
beforeAll(async () => {
  slowUrl = await startServer(SLOW_SERVER);
});
afterAll(() => {
  for (const server of servers) server.kill('SIGKILL');
});

const hello = Buffer.from('Hello World');
const expectHello: BodyExpectation = { kind: 'exact', length: 11, bytes: () => hello };

const atRate = { connections: 4, durationSeconds: 4, rate: 1000, keepAlive: true, timeoutSeconds: 5 };
const get = { method: 'GET', path: '/', headers: {} };
// the in-process engines that hold an arrival rate (the open loop, the wire engine's open loop)
const openLoops = builtinEngines.filter((e) => e.clientThreads && e.supports(atRate, get, expectHello).ok);

describe('the open loop (--rate)', () => {
  it.each(openLoops.map((e) => [e.name, e] as const))(
    '%s: counts a 1 s stall in the latency from the intended send time; the uncorrected latency hides it',
    async (_name, engine) => {
      // a server of its own for each engine: it stalls once
      const url = await startServer(STALLING_SERVER);
      const m = await engine.run({ url, request: get, expect: expectHello, shape: atRate });
      // about a quarter of the 4,000 requests were due during the stall: they waited up to 1 s
      expect(m.latency.p99).toBeGreaterThan(700);
      expect(m.latency.p90).toBeGreaterThan(100);
      // only the few requests in flight when it began were themselves slow: the uncorrected p99 stays far under the
      // stall (51 ms once in a clean-clone CI run, with the idle lanes beside it)
      expect(m.latencyUncorrected?.p99).toBeLessThan(200);
      // the rest went out late, once the stall let a connection go: the loop's lateness says so
      expect(m.lateness!.p99).toBeGreaterThan(700);
      expect(m.rate?.target).toBe(1000);
      expect(m.rate?.achieved).toBeGreaterThan(980);
      expect(m.failures).toMatchObject({ connect: 0, receive: 0, length: 0, exceptions: 0 });
    },
  );

  it('prints both latencies, and says when the achieved rate fell short', async () => {
    const run = await runCli(['run', 'hello', '-t', 'node', '-c', '10', '-d', '2', '-w', '0', '--rate', '2000']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      // a busy machine's latencies pass a second: 1,234.8 ms
      /- node c=10: open loop at 2,000 rps \(achieved [\d,.]+\); latency from the intended send p50 [\d,.]+ \/ p99 [\d,.]+ ms, uncorrected \(from the actual send\) p50 [\d,.]+ \/ p99 [\d,.]+ ms; sent late by p50 [\d,.]+ \/ p99 [\d,.]+ ms/,
    );
    // --rate reaches for wire's open loop (on its native core, where it was built: CI builds it) before the open-loop engine
    expect(run.stdout).toMatch(/The load generator \(wire [\d.]+ \(native core\)\)/);
    // one connection cannot carry 500 requests a second to a server that answers in 5 ms
    const slow = await runCli(['run', '--url', slowUrl, '-c', '1', '-d', '2', '-w', '0', '--rate', '500']);
    expect(slow.stdout).toMatch(/achieved [\d,.]+ rps of the 500 asked \(more than 2% short\)/);
  });
});
