import { cpSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { readHistory } from '@bench/runner';
import { launchChromium } from '../support/browser.js';
import { repoRoot, runCli, runProcess } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// An app repo measured after each of six commits, the fourth of which slows its list route down
// (a config change: the server waits 60 ms per request from then on where it waited 10, far beyond the noise of a busy
// machine).
const app = path.join(testTempDir('history'), 'app');
cpSync(path.join(repoRoot, 'examples', 'app'), app, { recursive: true, filter: (source) => !source.includes('node_modules') });
// the config imports @bench/runner: this checkout's
symlinkSync(path.join(repoRoot, 'node_modules'), path.join(app, 'node_modules'));
writeFileSync(path.join(app, '.gitignore'), 'node_modules\nresults.json\nsummary.txt\n');

const gitEnv = {
  GIT_AUTHOR_NAME: 'bench test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'bench test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_GLOBAL: '/dev/null',
};
async function git(args: readonly string[]): Promise<string> {
  const run = await runProcess('git', args, { cwd: app, env: gitEnv, timeoutMs: 20_000 });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.trim();
}

// Processes whose working directory is `dir` (the app's servers run there).
function processesIn(dir: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .flatMap((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === dir ? [readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()] : [];
      } catch {
        return []; // gone, or not ours to read
      }
    });
}

// Opens a page from file:// in headless Chromium: its console errors, its requests for anything else, and whether each chart drew.
async function openInChromium(file: string) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const url = pathToFileURL(file).href;
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => void (request.url() !== url && requests.push(request.url())));
    await page.goto(url);
    await page.waitForFunction(() => document.querySelectorAll('figure.chart [data-chart]:not([data-drawn])').length === 0, undefined, {
      timeout: 10_000,
    });
    const drawn = await page.evaluate(() =>
      [...document.querySelectorAll('figure.chart canvas')].map((canvas) => {
        const c = canvas as HTMLCanvasElement;
        return c
          .getContext('2d')!
          .getImageData(0, 0, c.width, c.height)
          .data.some((v, i) => i % 4 === 3 && v > 0);
      }),
    );
    return { errors, requests, charts: await page.locator('figure.chart').count(), drawn };
  } finally {
    await browser.close();
  }
}

const configFile = path.join(app, 'bench.config.ts');

describe('a history kept in an app repo', () => {
  it('finds the slowdown introduced by the fourth of six commits, fails the check, and draws it', async () => {
    await git(['init', '-q', '-b', 'main']);
    await git(['remote', 'add', 'origin', 'git@github.com:example/app.git']);
    const commits: string[] = [];
    // Each request waits 10 ms, then 60 from the fourth commit: rates bound by waiting, not by the CPU, so the runs
    // before the slowdown agree closely. CPU-bound (no wait, then 50 ms), the three read far enough apart in a clean-clone
    // run, beside the idle lanes, that the t-test between 3 runs and 3 (p at most 0.001) found no change point.
    const config = readFileSync(configFile, 'utf8');
    expect(config).toContain("args: ['server.mjs'],");
    writeFileSync(configFile, config.replace("args: ['server.mjs'],", "args: ['server.mjs'], env: { SLOW_MS: '10' },"));
    for (let i = 1; i <= 6; i++) {
      if (i === 4) writeFileSync(configFile, readFileSync(configFile, 'utf8').replace("SLOW_MS: '10'", "SLOW_MS: '60'"));
      writeFileSync(path.join(app, 'VERSION'), `${i}\n`);
      await git(['add', '-A']);
      await git(['commit', '-q', '-m', i === 4 ? 'a slower list route' : `change ${i}`]);
      commits.push(await git(['rev-parse', 'HEAD']));
      // --history takes an optional file name: last, or (odd commits) right before the scenario, which is then no file name
      const args = ['-t', 'app', '-d', '0.5', '-w', '0', '-c', '2', '--repeat', '1'];
      const run = await runCli(i % 2 ? ['run', '--history', 'list-items', ...args] : ['run', 'list-items', ...args, '--history'], {
        cwd: app,
        timeoutMs: 120_000,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`bench: 1 cell appended to ${path.join(app, 'bench-history.jsonl')}`);
    }

    const history = await readHistory(path.join(app, 'bench-history.jsonl'));
    expect(history.damaged).toEqual([]);
    expect(history.entries.map((e) => e.git.commit)).toEqual(commits);
    expect(new Set(history.entries.map((e) => e.series)).size).toBe(1);
    expect(history.entries[0]?.git).toMatchObject({ branch: 'main', repositoryUrl: 'https://github.com/example/app' });

    const check = await runCli(['history', 'check', '--fail-if', 'rps<-5%'], { cwd: app });
    const range = `${commits[2]!.slice(0, 7)}..${commits[3]!.slice(0, 7)}`;
    expect(check.code, check.stdout + check.stderr).toBe(1);
    expect(check.stdout).toMatch(
      new RegExp(`^\\| list-items/app c=2 autocannon \\| rps \\| ${range} \\|.*\\| -\\d+\\.\\d% \\|.*\\| regression \\|$`, 'm'),
    );
    expect(check.stderr).toMatch(new RegExp(`regressed beyond --fail-if .*rps<-5%: -\\d+\\.\\d% between ${range}`));

    const show = await runCli(['history', 'show', '--last', '6'], { cwd: app });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^rps [▁▂▃▄▅▆▇█]{6} \(last 6 of 6 runs\)$/m);
    expect(show.stdout).toMatch(new RegExp(`^\\| 4 \\| ${commits[3]!.slice(0, 7)} \\| main \\|.*◆ rps -`, 'm'));

    const report = await runCli(['history', 'report', '-o', 'history.html'], { cwd: app });
    expect(report.code, report.stderr).toBe(0);
    const page = readFileSync(path.join(app, 'history.html'), 'utf8');
    expect(page).toContain('<figure class="chart">');
    expect(page).toContain('"markers":[3.5]');
    expect(page).toContain(`href="https://github.com/example/app/commit/${commits[3]}"`);
    expect(page).not.toMatch(/<script src=|<link [^>]*href="http/);
    expect(await openInChromium(path.join(app, 'history.html'))).toEqual({ errors: [], requests: [], charts: 1, drawn: [true] });
    // nothing bench started in the app's folder outlives it (other tests may run other servers meanwhile)
    expect(processesIn(app)).toEqual([]);
  }, 300_000);

  it('bench history add takes the commit by flag, and a damaged line is skipped with its number', async () => {
    const file = path.join(app, 'other-history.jsonl');
    writeFileSync(file, '{"truncated\n');
    const add = await runCli(
      [
        'history',
        'add',
        'results.json',
        '--history',
        file,
        '--commit',
        'abc1234',
        '--branch',
        'topic',
        '--commit-time',
        '2026-01-31T12:00:00Z',
      ],
      { cwd: app },
    );
    expect(add.code, add.stderr).toBe(0);
    const history = await readHistory(file);
    expect(history.entries.map((e) => e.git)).toEqual([
      expect.objectContaining({ commit: 'abc1234', branch: 'topic', commitTime: '2026-01-31T12:00:00.000Z' }),
    ]);
    const show = await runCli(['history', 'show', '--history', file], { cwd: app });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stderr).toContain(`bench: ${file} line 1 skipped: not valid JSON`);
    const bad = await runCli(['history', 'check', '--history', file, '--fail-if', 'speed<-5%'], { cwd: app });
    expect(bad.code).toBe(2);
  });
});
