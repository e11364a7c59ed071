import { describe, expect, it } from 'vitest';
import { loadSuites } from '@bench/runner';
import { runSuite } from '../support/suite-run.js';

// Suite php-sapi-centos5 at a tiny scale on the real stacks: the article's rows and columns, its figures beside ours.
describe('bench suite php-sapi-centos5', () => {
  it('php-sapi-centos5: the ab block per mode, mod_fcgid beside mod_php and CGI, the article figures beside ours, memory per process', async () => {
    const { text, doc } = await runSuite('php-sapi-centos5', '0.05');
    expect(text).toMatch(/^\| Requests per second \| 302\.11 \| [\d,.]+ \| 304\.79 \| [\d,.]+ \| 39\.67 \| [\d,.]+ \| [\d,.]+ \|$/m);
    expect(text).toMatch(/^\| today \| {2}\| php-mod \| {2}\| php-fcgid \| {2}\| php-cgi \| php-fpm \|$/m);
    // the article's test.php answered 400 bytes: escape-400 does, on every stack
    expect(text).toMatch(/^\| Document Length \(bytes\) \| 400 \| 400 \| 400 \| 400 \| 400 \| 400 \| 400 \|$/m);
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
    // every stack of the suite's definition, each measured
    const definition = loadSuites().find((s) => s.definition.name === 'php-sapi-centos5')!.definition;
    expect([...new Set(doc.results.map((r) => r.target))].sort()).toEqual([...new Set(definition.runs.flatMap((r) => r.targets))].sort());
  });
});
