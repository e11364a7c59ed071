import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuites } from '@bench/runner';
import { findSuite, recordRun } from '@bench/suites';
import { runCli } from '../support/cli.js';
import { runSuite } from '../support/suite-run.js';
import { testTempDir } from '../support/temp-dir.js';

const FCGID_RATIO = 'modes / FastCGI (php-cgi under mod_fcgid) / Requests per second';

// Suite php-sapi-centos5 at a tiny scale on the real stacks: the article's rows and columns, its figures beside ours.
describe('bench suite php-sapi-centos5', () => {
  it("escape-400: the article's 400-byte page, byte for byte the same from mod_php, mod_fcgid, CGI and PHP-FPM", async () => {
    const stacks = ['php-mod', 'php-fcgid', 'php-cgi', 'php-fpm'];
    // bench verify starts each stack once and compares status, Content-Type and every byte of the body with the fixture
    const run = await runCli(['verify', 'escape-400', '-t', stacks.join(',')]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const stack of stacks) expect(run.stdout).toMatch(new RegExp(`^${stack} +ok$`, 'm'));
    expect(findSuite('php-sapi-centos5').definition.runs.flatMap((r) => r.scenarios)).toEqual(['escape-400']);
  });

  it('php-sapi-centos5: the ab block per mode on the 400-byte page, mod_fcgid beside mod_php and CGI, ratios over rounds and runs', async () => {
    // a cache of its own, holding one earlier run of the suite on this machine that read FastCGI at 100 times mod_php
    const cache = testTempDir('suite-cache');
    const kept = path.join(cache, 'bench', 'suites', 'php-sapi-centos5.json');
    mkdirSync(path.dirname(kept), { recursive: true });
    expect(recordRun(findSuite('php-sapi-centos5'), 0.05, '2026-11-27T09:00:00.000Z', { [FCGID_RATIO]: [100, 100, 100] }, kept)).toBe(kept);
    // two rounds, not the default three: intervals from rounds all the same, at two thirds of the CGI load
    const { text, doc } = await runSuite('php-sapi-centos5', '0.05', ['--repeat', '2'], { XDG_CACHE_HOME: cache });
    expect(text).toMatch(/^\| Requests per second \| 302\.11 \| [\d,.]+ \| 304\.79 \| [\d,.]+ \| 39\.67 \| [\d,.]+ \| [\d,.]+ \|$/m);
    expect(text).toMatch(/^\| today \| {2}\| php-mod \| {2}\| php-fcgid \| {2}\| php-cgi \| php-fpm \|$/m);
    // the article's test.php answered 400 bytes: escape-400 does, on every stack
    expect(text).toMatch(/^\| Document Length \(bytes\) \| 400 \| 400 \| 400 \| 400 \| 400 \| 400 \| 400 \|$/m);
    expect(text).toMatch(/^- mod_php: 1\.00 then, 1\.00 now$/m);
    expect(text).toMatch(/^- CGI: 0\.13 then, [\d.]+( \[[\d.]+-[\d.]+\])? now$/m);
    // the article's 1,000 requests took 3.3 s there: the suite runs by time, and says so
    expect(text).toMatch(/^- modes: the article's time, 0\.5 s a cell \(scaled by 0\.05\), not its 1,000 requests/m);
    expect(doc.suite?.shapes).toMatchObject([{ run: 'modes', kind: 'time', requests: 1000, articleSeconds: 3.281 }]);
    // FastCGI / module's interval covers the earlier run kept here as well as this run's rounds, and says so
    const fcgid = /^- FastCGI \(php-cgi under mod_fcgid\): 1\.01 then, ([\d.]+) \[([\d.]+)-([\d.]+)\] now$/m.exec(text);
    expect(fcgid, text).not.toBeNull();
    expect(Number(fcgid![3])).toBeGreaterThanOrEqual(100);
    expect(text).toMatch(
      /^The intervals cover the spread between this run's 2 rounds \(each on freshly started stacks\), widened to the spread between 2 runs of this suite at this scale on this machine \(this one and 1 kept since 2026-11-27 09:00 UTC\)\.$/m,
    );
    // and this run is kept for the next
    const runs = (JSON.parse(readFileSync(kept, 'utf8')) as { runs: Array<{ ratios: Record<string, number[]> }> }).runs;
    expect(runs).toHaveLength(2);
    expect(runs[1]?.ratios[FCGID_RATIO]).toHaveLength(2);
    expect(text).toMatch(/ab's report for FastCGI \(php-cgi under mod_fcgid\) today:[\s\S]*Concurrency Level: +10/);
    expect(text).toMatch(/^\| mod_php \| php-mod \| .*apache2 [\d,]+/m);
    expect(doc.results.every((r) => r.engine?.name === 'ab' && r.status === 'ok' && r.failed === 0)).toBe(true);
    // mod_fcgid's pool: a php-cgi per connection, all of them spawned before the warm-up
    for (const cell of doc.results.filter((r) => r.target === 'php-fcgid')) {
      expect(cell.settings).toMatchObject({ fcgidMaxProcesses: 10, fcgidPoolSpawnSeconds: expect.any(Number) });
      expect(cell.resources?.server?.atPeak?.filter((p) => p.name === 'php-cgi')).toHaveLength(10);
    }
    // two rounds of each stack, as asked: the ratios' intervals come from them
    expect(doc.results).toHaveLength(8);
    // every stack of the suite's definition, each measured
    const definition = loadSuites().find((s) => s.definition.name === 'php-sapi-centos5')!.definition;
    expect([...new Set(doc.results.map((r) => r.target))].sort()).toEqual([...new Set(definition.runs.flatMap((r) => r.targets))].sort());
  });
});
