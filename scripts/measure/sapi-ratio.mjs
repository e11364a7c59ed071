#!/usr/bin/env node
// What moves article 003's FastCGI / module ratio from one run to the next: php-mod and php-fcgid under the suite's own
// load shape (ab -c 10, a new connection per request, 5 s cells after a warm-up until steady, 3 rounds in a random
// order), run after run, in each variant named; or the suite itself, run after run. Each run prints its rounds'
// ratios, their geometric mean with its 95% interval (Student's t over the rounds, as the suite computes it), the
// requests of 1 s or more inside the measured seconds (mod_fcgid's sleep when every php-cgi is busy), the php-cgi
// processes alive, and the load average before and after; then, per variant, whether the runs' intervals overlap.
//
// Variants (default: page,cores):
//   page    escape-400 (the article's 400-byte page) on the stacks as bench configures them
//   cores   escape-400 with mod_fcgid's pool at the cores (--workers N), as bench ran it before: waits come back
//   big     escape (12,891 bytes, 32 times the article's page) on the stacks as configured
//   pinned  escape-400 with the stacks on CPU 0 and ab on CPU 1 (the article's single-core server, its client apart)
//   suite   `bench suite php-sapi-centos5` whole, its runs kept in a cache of this experiment's own, so each widens the
//           next one's intervals (the first reads the rounds only) and nothing outside the experiment does
//
// Usage: node scripts/measure/sapi-ratio.mjs [runs=3] [variants=page,cores] [gap seconds between runs=0]
// Needs a quiet machine to mean anything: the load average is printed so a reader can tell. Every run's results stay in
// the folder printed at the end.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(root, 'packages', 'runner', 'bin', 'bench.js');
const { showRatio, spreadOf } = await import(path.join(root, 'packages', 'reporters', 'dist', 'bundle', 'index.js'));
const [runs = '3', variantList = 'page,cores', gap = '0'] = process.argv.slice(2);
const dir = mkdtempSync(path.join(os.tmpdir(), 'sapi-ratio-'));

const shape = ['-t', 'php-mod,php-fcgid', '-c', '10', '-d', '5', '--no-keepalive', '--engine', 'ab', '--repeat', '3'];
const variants = {
  page: ['escape-400'],
  cores: ['escape-400', '--workers', String(os.availableParallelism())],
  big: ['escape'],
  pinned: ['escape-400', '--cpus', 'server=0,client=1'],
};
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const bench = (args) => {
  try {
    execFileSync(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    // a run whose cells failed exits 1: its results file says which
  }
};

/** One bench run of php-mod and php-fcgid: each round's ratio, the waits of a second or more, the php-cgi alive. */
function measureRun(variant, run) {
  const out = path.join(dir, `${variant}-${run}.json`);
  bench(['run', ...variants[variant], ...shape, '-r', 'json', '-o', out]);
  const results = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')).results.filter((r) => r.status === 'ok') : [];
  const rounds = [...new Set(results.map((r) => r.repeat))].sort((a, b) => a - b);
  const rps = (target, round) => results.find((r) => r.target === target && r.repeat === round)?.rps;
  const ratios = rounds.flatMap((round) =>
    rps('php-fcgid', round) && rps('php-mod', round) ? [rps('php-fcgid', round) / rps('php-mod', round)] : [],
  );
  const fcgid = results.filter((r) => r.target === 'php-fcgid');
  const waits = fcgid.map((r) =>
    Number(/waits inside the measured run: (\d[\d,]*) requests? took/.exec(r.notes.join('\n'))?.[1]?.replace(/,/g, '') ?? 0),
  );
  const phpCgi = fcgid.map((r) => (r.resources?.server?.atPeak ?? []).filter((p) => p.name === 'php-cgi').length);
  return { ratios, extra: `waits of 1 s+ per round ${waits.join('/')}, php-cgi ${phpCgi.join('/')}` };
}

/** One run of the suite itself, in the experiment's cache: the ratio and interval it printed, and what the interval covers. */
function suiteRun(run) {
  const cache = path.join(dir, 'cache');
  mkdirSync(cache, { recursive: true });
  const text = path.join(dir, `suite-${run}.md`);
  const env = { ...process.env, XDG_CACHE_HOME: cache };
  try {
    execFileSync(
      process.execPath,
      [cli, 'suite', 'php-sapi-centos5', '-r', 'suite', '-o', text, '-r', 'json', '-o', text.replace(/md$/, 'json')],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        env,
      },
    );
  } catch {
    // as above
  }
  const printed = existsSync(text) ? readFileSync(text, 'utf8') : '';
  const line = /^- FastCGI \(php-cgi under mod_fcgid\): .*$/m.exec(printed)?.[0] ?? '(no FastCGI line)';
  const covers = /^The intervals cover .*$/m.exec(printed)?.[0] ?? '';
  return { line, covers, interval: /([\d.]+) \[([\d.]+)-([\d.]+)\] now$/.exec(line) };
}

const overlap = (a, b) => a && b && a.low <= b.high && b.low <= a.high;
const chosen = variantList.split(',');
const unknown = chosen.filter((v) => v !== 'suite' && !variants[v]);
if (unknown.length > 0) throw new Error(`unknown variant ${unknown.join(', ')}: page, cores, big, pinned or suite`);
for (const variant of chosen) {
  console.log(`\n## ${variant}\n`);
  const spreads = [];
  for (let run = 1; run <= Number(runs); run++) {
    if (run > 1 && Number(gap) > 0) await sleep(Number(gap) * 1000);
    const before = load();
    const started = Date.now();
    if (variant === 'suite') {
      const { line, covers, interval } = suiteRun(run);
      spreads.push(interval ? { low: Number(interval[2]), high: Number(interval[3]), center: Number(interval[1]) } : undefined);
      console.log(`run ${run}: ${line} (load ${before} -> ${load()}, ${Math.round((Date.now() - started) / 1000)} s)\n  ${covers}`);
      continue;
    }
    const { ratios, extra } = measureRun(variant, run);
    const spread = spreadOf(ratios);
    spreads.push(spread);
    console.log(
      `run ${run}: FastCGI / module ${showRatio(spread) || '-'} (rounds ${ratios.map((r) => r.toFixed(3)).join(', ')}); ${extra}; ` +
        `load ${before} -> ${load()}, ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }
  if (spreads.length < 2) continue;
  const pairs = spreads.flatMap((a, i) => spreads.slice(i + 1).map((b) => overlap(a, b)));
  const covered = spreads.slice(1).filter((s) => s && spreads[0] && s.center >= spreads[0].low && s.center <= spreads[0].high).length;
  console.log(
    `\n${pairs.filter(Boolean).length} of ${pairs.length} pairs of runs have overlapping intervals; ` +
      `the first run's interval holds ${covered} of the ${spreads.length - 1} later runs' ratios`,
  );
}
console.log(`\nEvery run's results and the suite's reports: ${dir}`);
