import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { builtinScenarios } from '@bench/runner';
import { javaTargets } from '@bench/targets';
import { runCli } from '../support/cli.js';
import { leftoverServers, newServerProcesses, serverProcesses, type ServerProcess } from '../support/processes.js';
import { testTempDir } from '../support/temp-dir.js';

const names = javaTargets.map((t) => t.name);
// Other programs may run servers on this machine too: the checks here look at the JVMs bench starts.
const JVM_MAIN_CLASS = /bench\.(tomcat|jetty|resin)\./;
const dir = testTempDir('java');

describe('Java servlet targets', () => {
  it('are all three built in', () => {
    expect(names).toEqual(['java-tomcat', 'java-jetty', 'java-resin']);
  });

  // bench verify of each on every built-in scenario, from a 0700 checkout, is in verify-matrix.test.ts

  it('run hello with a few hundred requests, without failures, each recording its container settings', async () => {
    const out = path.join(dir, 'hello.json');
    // the JIT warm-up is the next test's, on one container (the three share it: packages/targets/src/java/warm-up.ts)
    const run = await runCli(
      ['run', 'hello', '-t', names.join(','), '-c', '4', '-n', '300', '-w', '0', '--reporter', 'json', '--out', out],
      { timeoutMs: 120_000, env: { BENCH_JAVA_WARMUP: '0' } },
    );
    expect(run.code, run.stderr).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.results.map((r) => `${r.target}/${r.status}/${r.requests}/${r.failed}/${r.non2xx}`)).toEqual(
      names.map((n) => `${n}/ok/300/0/0`),
    );
    expect(doc.results.map((r) => r.settings.maxKeepAliveRequests)).toEqual([1000, 'unlimited', 'unlimited']);
    expect(doc.results.map((r) => r.settings.maxThreads)).toEqual([200, 200, 4096]);
    for (const result of doc.results) {
      expect(result.bytes.body).toBe(300 * 'Hello World'.length);
      expect(result.settings).toMatchObject({ java: expect.stringMatching(/^\d+/), persistentConnections: false, jitWarmUpRequests: 0 });
    }
  });

  it('warm the JIT before the run, on Tomcat (the three containers share the warm-up)', async () => {
    const out = path.join(dir, 'warm.json');
    const run = await runCli(['run', 'hello', '-t', 'java-tomcat', '-c', '4', '-n', '300', '-w', '0', '--reporter', 'json', '--out', out], {
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const [result] = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results;
    expect(`${result?.status}/${result?.requests}/${result?.failed}`).toBe('ok/300/0');
    // at least 3 s of load, whose count depends on how busy the machine is (891 beside other test files)
    expect(Number(result?.settings.jitWarmUpRequests)).toBeGreaterThan(100);
  });

  it.each(javaTargets.map((t) => [t.name, t] as const))('%s stops its JVM with the stack', async (_name, target) => {
    const hello = builtinScenarios().find((s) => s.name === 'hello')!;
    const before = serverProcesses();
    const jvms = (found: readonly ServerProcess[]) => found.filter((p) => JVM_MAIN_CLASS.test(p.cmdline)).map((p) => p.cmdline);
    const running = await target.start(hello, { services: {} });
    try {
      // the JVM is seen as a server process while it runs, so the check below could fail
      expect(jvms(newServerProcesses(before))).toEqual([
        expect.stringMatching(/java .*bench\.(tomcat\.TomcatServer|jetty\.JettyServer|resin\.ResinServer)$/),
      ]);
      expect(running.settings.jitWarmUpRequests).toBe(0); // started without load to follow: no warm-up
    } finally {
      await running.stop();
    }
    expect(jvms(await leftoverServers(before))).toEqual([]);
  });

  it('records the pooled variant when BENCH_JAVA_POOL=1', async () => {
    const out = path.join(dir, 'redis.json');
    const run = await runCli(
      [
        'run',
        'redis-get',
        '-t',
        names.join(','),
        '-c',
        '4',
        '-n',
        '200',
        '-w',
        '0',
        '--pool-size',
        '3',
        '--reporter',
        'json',
        '--out',
        out,
      ],
      {
        timeoutMs: 120_000,
        env: { BENCH_JAVA_POOL: '1', BENCH_JAVA_WARMUP: '0' },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    for (const result of doc.results) {
      expect(`${result.target}/${result.status}/${result.failed}`).toBe(`${result.target}/ok/0`);
      expect(result.settings).toMatchObject({ persistentConnections: true, poolSize: 3, jitWarmUpRequests: 0 });
    }
  });

  it('say which scenario they cannot serve and why: a folder scenario without ScenarioServlet.java', async () => {
    const app = path.join(dir, 'app');
    const greet = path.join(app, 'bench', 'greet');
    mkdirSync(greet, { recursive: true });
    writeFileSync(
      path.join(greet, 'scenario.json'),
      JSON.stringify({
        name: 'greet',
        title: 'a greeting',
        from: [],
        description: '`Hello, bench!`, text/plain.',
        path: '/greet',
        contentType: 'text/plain',
        body: { text: 'Hello, bench!' },
        kind: 'dynamic',
      }),
    );
    writeFileSync(
      path.join(greet, 'node.mjs'),
      "export default (app, context) => app.get(context.scenario.request.path, (_q, reply) => reply.type('text/plain').send('Hello, bench!'));\n",
    );
    writeFileSync(path.join(app, 'bench.config.mjs'), "export default { scenarios: ['./bench/greet'] };\n");
    const list = await runCli(['list'], { cwd: app });
    const verify = await runCli(['verify', '-t', names.join(',')], { cwd: app });
    for (const name of names) {
      expect(list.stdout).toContain(`  ${name} / greet: the scenario has no ScenarioServlet.java`);
      expect(verify.stdout).toContain(`${name} / greet: not supported: the scenario has no ScenarioServlet.java`);
    }
  });
});
