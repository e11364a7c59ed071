import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { loadSuites } from '@bench/runner';
import { runCli } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { testTempDir } from '../support/temp-dir.js';

// Every suite at a tiny scale on the real stacks: the article's rows and columns, its figures
// beside ours, ratios from the reference row, and the document re-rendered by `bench report`.
const dir = testTempDir('suites');

async function suite(name: string, scale: string, extra: string[] = []) {
  const out = path.join(dir, `${name}.json`);
  let watch: ReturnType<typeof watchDescendants> | undefined;
  const run = await runCli(['suite', name, '--scale', scale, ...extra, '--reporter', 'suite', '--reporter', 'json', '--out', out], {
    timeoutMs: 600_000,
    onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
  });
  expect(run.code, run.stderr).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 500));
  watch?.stop();
  expect(watch?.survivors()).toEqual([]);
  const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
  expect(doc.suite).toMatchObject({ name, scale: Number(scale) });
  const report = await runCli(['report', out]);
  expect(report.stdout).toBe(run.stdout.slice(0, report.stdout.length));
  return { text: run.stdout, doc };
}

const row = (text: string, label: string) => text.split('\n').find((l) => l.startsWith(`| ${label} |`)) ?? `(no row ${label})`;

describe('bench suite', () => {
  it('list shows each suite, what it needs and whether this machine has it', async () => {
    const run = await runCli(['suite', 'list']);
    expect(run.code).toBe(0);
    for (const { definition } of loadSuites()) {
      // a suite of client timings (article 002) has no stacks to check here: bench doctor lists its clients
      const here = definition.kind === 'https-clients' ? 'see bench doctor' : 'yes';
      expect(run.stdout).toMatch(new RegExp(`^${definition.name} +${definition.article} .* ${here}$`, 'm'));
    }
  });

  it('-t names only targets the suite has', async () => {
    const run = await runCli(['suite', 'linuxfab-2000', '-t', 'node']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('bench: BENCH_ERR_USAGE: suite linuxfab-2000 has no target node; its targets: php-mod');
  });

  it('php-sapi-centos5: the ab block per mode, mod_fcgid beside mod_php and CGI, the article figures beside ours, memory per process', async () => {
    const { text, doc } = await suite('php-sapi-centos5', '0.05');
    expect(text).toMatch(/^\| Requests per second \| 302\.11 \| [\d,.]+ \| 304\.79 \| [\d,.]+ \| 39\.67 \| [\d,.]+ \| [\d,.]+ \|$/m);
    expect(text).toMatch(/^\| today \| {2}\| php-mod \| {2}\| php-fcgid \| {2}\| php-cgi \| php-fpm \|$/m);
    expect(text).toMatch(/^- mod_php: 1\.00 then, 1\.00 now$/m);
    expect(text).toMatch(/^- CGI: 0\.13 then, [\d.]+( \[[\d.]+-[\d.]+\])? now$/m);
    // the article's 1,000 requests took 3.3 s there: the suite runs by time, and says so
    expect(text).toMatch(/^- modes: the article's time, 0\.5 s a cell \(scaled by 0\.05\), not its 1,000 requests/m);
    expect(doc.suite?.shapes).toMatchObject([{ run: 'modes', kind: 'time', requests: 1000, articleSeconds: 3.281 }]);
    expect(text).toMatch(/ab's report for FastCGI \(php-cgi under mod_fcgid\) today:[\s\S]*Concurrency Level: +10/);
    expect(text).toMatch(/^\| mod_php \| php-mod \| .*apache2 [\d,]+/m);
    expect(doc.results.every((r) => r.engine?.name === 'ab' && r.status === 'ok' && r.failed === 0)).toBe(true);
    // three rounds of each stack by default: the ratios' intervals come from them
    expect(doc.results).toHaveLength(12);
    expect([...new Set(doc.results.map((r) => r.target))].sort()).toEqual(['php-cgi', 'php-fcgid', 'php-fpm', 'php-mod']);
  });

  it('node-php-2011: the node variants at three levels and node2 vs PHP, rps, 80%req and fail beside 2011', async () => {
    // node (node0) and PHP only: the other variants' rows stay unmeasured, as -t asks
    // one round: the rounds and their intervals are the php-sapi-centos5 test's
    const { text, doc } = await suite('node-php-2011', '0.01', ['--repeat', '1', '-t', 'node,php-fpm']);
    // 3000, 5000, 7000 scaled to 30, 50, 70 connections
    expect(new Set(doc.results.map((r) => r.concurrency))).toEqual(new Set([30, 50, 70]));
    // the variants are the columns: each header names its target, and there is no "today" column
    expect(text).toMatch(/^\| c \| node0 rps \(node\) \| node0 80%req \(node\) \|/m);
    expect(text).toMatch(/^\| node0 rps \(node\) \| 4,025 \| [\d,.]+ \| 3,913 \| [\d,.]+ \| 3,823 \| [\d,.]+ \|$/m);
    expect(text).toMatch(/^\| node1 rps \(node-cluster, not run: not selected \(-t\)\) \| 5,479 \| - \| 5,283 \| - \| 5,258 \| - \|$/m);
    expect(text).toMatch(
      /^\| php c=3000 rps \(php-fpm\) \| 3,624 \| [\d,.]+ \| 1,293 \| [\d,.]+ \| 1,957 \| [\d,.]+ \| 2,015 \| [\d,.]+ \|$/m,
    );
    expect(text).toMatch(/^\| node c=3000 rps \(node-cluster-pool, not run: not selected \(-t\)\) \| 7,677 \| - \|/m);
    expect(doc.results.every((r) => r.keepAlive === false)).toBe(true);
  });

  it("linuxfab-2000: the Windows and Linux rows as published, today's Apache + mod_php beside them with ab's block", async () => {
    const { text } = await suite('linuxfab-2000', '0.01');
    expect(text).toMatch(/^\| Requests per second \| 166\.84 \| 175\.4 \| 287\.56 \| 193\.32 \| [\d,.]+ \|$/m);
    expect(text).toMatch(/^- Apache \+ mod_php \(today\): [\d.]+ now$/m);
    expect(text.match(/ab's report for Apache \+ mod_php \(today\) today:/g)).toHaveLength(3);
  });

  it('computerra-2002: Parts I to III, one user and four users, ratios to mod_php', async () => {
    // Apache, mod_perl and nginx: the Java, SSI and template targets have tests of their own
    const { text, doc } = await suite('computerra-2002', '0.01', ['--repeat', '1', '-t', 'php-mod,perl-mod,nginx-static']);
    expect(row(text, 'mod_php/Apache')).toMatch(
      /^\| mod_php\/Apache \| php-mod \| 561 \/ [\d,.]+ \| · \/ - \| 291 \/ [\d,.]+ \| 52 \/ [\d,.]+ \| 117 \/ [\d,.]+ \| 117 \/ [\d,.]+ \|$/,
    );
    expect(row(text, 'Resin/JDK1.2')).toMatch(/no counterpart here \| 509 \/ - \|/);
    expect(row(text, 'Resin/IBM JDK')).toMatch(/^\| Resin\/IBM JDK \| java-resin \(not run: not selected \(-t\)\) \| 694 \/ - \|/);
    expect(text).toMatch(/### Part II: four users \(total\)/);
    expect(new Set(doc.results.filter((r) => r.suiteRun === 'part2').map((r) => r.concurrency))).toEqual(new Set([1, 4]));
    expect(doc.results.filter((r) => r.suiteRun === 'part3').every((r) => r.engine?.name === 'ab')).toBe(true);
    expect(text).toMatch(/Published only: A hit parade measured on Windows NT, printed as published/);
  });
});
