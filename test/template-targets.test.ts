import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { watchDescendants } from './support/descendants.js';

// Article 000's SSI, Embperl and ASP PerlScript rows, today: each serves its scenarios byte for
// byte as every other stack (bench verify over the whole matrix checks them too), runs load, stops
// with nothing left, and says why it cannot serve the rest.
const targets = [
  { name: 'apache-ssi', serves: ['hello', 'file', 'include', 'big'], cannot: 'loop', reason: /SSI only pastes files and text together \(no loops, no database, no backend clients\)/ },
  { name: 'perl-embperl', serves: ['hello', 'loop', 'big', 'db', 'cache'], cannot: 'include', reason: /no index\.epl: Embperl pages exist for hello, loop, big, db and cache/ },
  { name: 'perl-asp', serves: ['hello', 'loop', 'big', 'db', 'cache'], cannot: 'escape', reason: /no index\.asp: Apache::ASP pages exist for hello, loop, big, db and cache/ },
];

describe.each(targets)('target $name', ({ name, serves, cannot, reason }) => {
  it(`verifies on ${serves.join(', ')}`, async () => {
    const run = await runCli(['verify', serves.join(','), '-t', name], { timeoutMs: 120_000 });
    expect(run.stdout).toMatch(new RegExp(`^${name} +${serves.map(() => 'ok').join(' +')}$`, 'm'));
    expect(run.code).toBe(0);
  });

  it('runs hello for a few hundred requests with no failure, and stops with nothing left', async () => {
    let watch: ReturnType<typeof watchDescendants> | undefined;
    const run = await runCli(['run', 'hello', '-t', name, '-c', '4', '-n', '300', '-w', '0', '--reporter', 'json'], { onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    watch?.stop();
    expect(run.code, run.stderr).toBe(0);
    const [result] = JSON.parse(run.stdout).results;
    expect(result).toMatchObject({ target: name, status: 'ok', requests: 300, failed: 0, non2xx: 0 });
    expect(watch?.survivors()).toEqual([]);
  });

  it(`says why it cannot serve ${cannot}`, async () => {
    const run = await runCli(['run', cannot, '-t', name, '-n', '10', '-c', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    const list = await runCli(['list']);
    expect(list.stdout).toMatch(new RegExp(`^  ${name} / ${cannot}: .*`, 'm'));
  });
});

describe('bench list --all', () => {
  it('accounts for every stack article 000 names: a target today, or why none can', async () => {
    const run = await runCli(['list', '--all']);
    expect(run.code).toBe(0);
    const section = run.stdout.slice(run.stdout.indexOf("Article 000's stacks"));
    for (const [stack, today] of [
      ['mod_php/Apache', 'php-mod'],
      ['Embperl', 'perl-embperl'],
      ['ASP PerlScript on Apache', 'perl-asp'],
      ['SSI Include on Apache', 'apache-ssi'],
      ['Tomcat/IBM', 'java-tomcat'],
      ['ASP/IIS', 'out of reach: runs on Windows only'],
      ['Resin/IIS', 'out of reach: runs on Windows only'],
      ['Orion', 'out of reach: no maintained free release'],
      ['JRun', 'out of reach: no maintained free release'],
      ['ServletExec', 'out of reach: no maintained free release'],
      ['RXML/Roxen', 'out of reach: Roxen has no Debian package'],
      ['XML/XSLT pages', 'out of reach: the article gives neither the pages nor the stylesheets'],
    ]) {
      expect(section).toMatch(new RegExp(`^${stack.replace(/[/().]/g, '\\$&')}.* ${today}`, 'm'));
    }
  });
});
