// Where the test suite's time goes: each file's wall time (vitest's own JSON report) and CPU (its worker's and the
// processes it reaped: servers, CLIs, their children), and every stack and service start (BENCH_START_TIMES).
//   node scripts/check/test-times.mjs [vitest args]                 runs `vitest run` (the whole suite, or the files given)
//   node scripts/check/test-times.mjs --from REPORT.json[,REPORT2.json...] TIMES.jsonl reads the files of an earlier run (or
//                                                              runs: several reports, one table)
// Prints markdown tables: the run, the files by wall time, the starts by kind and name.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
let report;
let times;
if (args[0] === '--from') {
  [report, times] = [args[1], args[2]];
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-test-times-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  report = path.join(dir, 'report.json');
  times = path.join(dir, 'times.jsonl');
  const run = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_START_TIMES: times },
  });
  if (run.status !== 0) console.error(`test-times: vitest exited ${run.status}; the tables cover what ran`);
}

const json = { testResults: report.split(',').flatMap((file) => JSON.parse(readFileSync(file, 'utf8')).testResults) };
let lines = [];
try {
  lines = readFileSync(times, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
} catch {
  console.error(`test-times: no ${times}: CPU and starts are missing`);
}
const root = process.cwd() + path.sep;
const rel = (file) => (file.startsWith(root) ? file.slice(root.length) : file);
const s = (ms) => (ms / 1000).toFixed(1);
const cpuOf = new Map(lines.filter((l) => l.kind === 'file').map((l) => [rel(l.file), l]));
const files = json.testResults
  .map((f) => ({ file: rel(f.name), tests: f.assertionResults.length, ms: f.endTime - f.startTime, start: f.startTime, end: f.endTime }))
  .sort((a, b) => b.ms - a.ms);
const first = Math.min(...files.map((f) => f.start));
const last = Math.max(...files.map((f) => f.end));
const cpuTotal = [...cpuOf.values()].reduce((sum, l) => sum + l.cpu, 0);

console.log(`## The run\n`);
console.log(`| files | tests | wall (first file's start to last's end) | files' wall, summed | integration files' CPU, summed |`);
console.log(`| ---: | ---: | ---: | ---: | ---: |`);
console.log(
  `| ${files.length} | ${files.reduce((n, f) => n + f.tests, 0)} | ${s(last - first)} s | ${s(files.reduce((n, f) => n + f.ms, 0))} s | ${cpuTotal.toFixed(1)} s |\n`,
);
console.log(`## Files, by wall time\n`);
console.log(`| file | tests | wall s | CPU s | of it in the worker |`);
console.log(`| --- | ---: | ---: | ---: | ---: |`);
for (const f of files)
  console.log(
    `| ${f.file} | ${f.tests} | ${s(f.ms)} | ${cpuOf.get(f.file)?.cpu.toFixed(1) ?? '-'} | ${cpuOf.get(f.file)?.inWorker?.toFixed(1) ?? '-'} |`,
  );

const scopeFile = new Map(lines.filter((l) => l.kind === 'file').map((l) => [l.scope, rel(l.file)]));
const starts = lines.filter((l) => l.kind === 'stack' || l.kind === 'service');
if (starts.length > 0) {
  const groups = new Map();
  for (const l of starts) {
    const key = `${l.kind} ${l.name}`;
    const g = groups.get(key) ?? { kind: l.kind, name: l.name, count: 0, ms: 0, files: new Set() };
    g.count++;
    g.ms += l.ms;
    g.files.add(scopeFile.get(l.scope) ?? 'outside a test scope');
    groups.set(key, g);
  }
  console.log(`\n## Starts, by total time\n`);
  console.log(`| kind | name | starts | total s | mean s | files |`);
  console.log(`| --- | --- | ---: | ---: | ---: | ---: |`);
  for (const g of [...groups.values()].sort((a, b) => b.ms - a.ms))
    console.log(`| ${g.kind} | ${g.name} | ${g.count} | ${s(g.ms)} | ${s(g.ms / g.count)} | ${g.files.size} |`);
}

// the load each file drives: warm-ups and measured runs, summed (a second of load keeps the cores busy on both sides)
const loads = lines.filter((l) => l.kind === 'warm-up' || l.kind === 'load');
if (loads.length > 0) {
  const byFile = new Map();
  for (const l of loads) {
    const file = scopeFile.get(l.scope) ?? 'outside a test scope';
    const g = byFile.get(file) ?? { file, cells: 0, warm: 0, load: 0 };
    if (l.kind === 'load') g.cells++;
    g[l.kind === 'load' ? 'load' : 'warm'] += l.ms;
    byFile.set(file, g);
  }
  const all = [...byFile.values()];
  console.log(`\n## Load, by file (warm-ups and measured runs)\n`);
  console.log(`| file | cells | warm-up s | measured s | total s |`);
  console.log(`| --- | ---: | ---: | ---: | ---: |`);
  console.log(
    `| all | ${all.reduce((n, g) => n + g.cells, 0)} | ${s(all.reduce((n, g) => n + g.warm, 0))} | ${s(all.reduce((n, g) => n + g.load, 0))} | ${s(all.reduce((n, g) => n + g.warm + g.load, 0))} |`,
  );
  for (const g of all.sort((a, b) => b.warm + b.load - a.warm - a.load))
    console.log(`| ${g.file} | ${g.cells} | ${s(g.warm)} | ${s(g.load)} | ${s(g.warm + g.load)} |`);
}
