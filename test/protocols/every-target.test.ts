import { describe, expect, it } from 'vitest';
import type { Protocol } from '@bench/core';
import { builtinTargets } from '@bench/targets';
import { runCli } from '../support/cli.js';
import { runCellsJson } from '../support/run-cell.js';
import { answersOnlyJvms } from '../support/jvm-env.js';
import { testTempDir } from '../support/temp-dir.js';

const dir = testTempDir('every-target');

// Every built-in target that claims a protocol beyond HTTP/1.1 serves it: bench's verification request checks the
// chain against the run's CA, ALPN (h2 for h2), and the body, then a few requests run over it. nginx-static serves
// files only (its TLS and HTTP/2 are run in protocols.test.ts); every other one runs hello.
const claiming = (protocol: Protocol) =>
  builtinTargets.filter((t) => t.name !== 'nginx-static' && (t.protocols ?? []).includes(protocol)).map((t) => t.name);

describe('every target that claims a protocol', () => {
  for (const [protocol, engine] of [
    ['https', 'autocannon'],
    ['h2', 'h2load'],
    ['h2c', 'h2load'],
  ] as const) {
    it(`serves ${protocol}, verified over it`, async () => {
      const targets = claiming(protocol);
      expect(targets.length).toBeGreaterThan(0);
      const cells = await runCellsJson(
        dir,
        ['run', 'hello', '-t', targets.join(','), '--protocol', protocol, '--engine', engine, '-c', '2', '-n', '50'],
        protocol,
        // the JVMs' JIT warm-up (over TLS in a TLS run: packages/targets/src/java/warm-up.test.ts) is not under test here
        { timeoutMs: 240_000, env: { BENCH_JAVA_WARMUP: '0', ...answersOnlyJvms } },
      );
      expect(cells.map((c) => [c.target, c.status, c.protocol, c.failed, c.non2xx]).sort()).toEqual(
        targets.map((target) => [target, 'ok', protocol, 0, 0]).sort(),
      );
    });
  }

  it('bench list names the protocols of every target and engine, and why a target serves no more', async () => {
    const list = await runCli(['list']);
    expect(list.code, list.stderr).toBe(0);
    const table = list.stdout.slice(list.stdout.indexOf('Protocols (--protocol'));
    expect(table).toMatch(/^java-tomcat +http1, https, h2, h2c +-$/m);
    expect(table).toMatch(/^php-mod +http1, https +mod_http2 turns itself off under the prefork MPM/m);
    expect(table).toMatch(/^php-cli-server +http1 +PHP's built-in web server \(php -S\) speaks cleartext HTTP\/1\.1 only$/m);
    // and what each engine speaks, and whether it checks certificates under load
    expect(table).toMatch(/^open-loop +yes .* http1, https, h2 +bench's open loop/m);
    expect(table).toMatch(/^h2load +yes .* http1, https, h2, h2c \(no certificate check\) +h2load/m);
  });
});
