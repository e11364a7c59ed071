import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { testTempDir } from '../support/temp-dir.js';

const root = testTempDir('config-errors');
let n = 0;

/** A fresh app folder holding one config file. */
function appWith(file: string, text: string): string {
  const dir = path.join(root, `app-${++n}`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, file), text);
  return dir;
}

const server404 =
  "require('node:http').createServer((q, r) => { r.statusCode = 404; r.end('no'); }).listen(Number(process.env.PORT), process.env.HOST)";
const scenario = "scenarios: [{ name: 'home', path: '/' }]";

// Each bad config: one line on stderr naming the file, the key path and what was expected; exit 2; nothing left running.
const cases: Array<[string, () => { cwd: string; args: string[] }, RegExp]> = [
  [
    'missing --config file',
    () => ({ cwd: appWith('README.md', ''), args: ['run', '--config', 'nope.config.ts'] }),
    /^bench: BENCH_ERR_CONFIG: config nope\.config\.ts: no such file$/,
  ],
  [
    'invalid syntax',
    () => ({ cwd: appWith('bench.config.mjs', 'export default {'), args: ['run'] }),
    /^bench: BENCH_ERR_CONFIG: config bench\.config\.mjs: it cannot be loaded: .*(Unexpected|SyntaxError)/,
  ],
  [
    'invalid TypeScript',
    () => ({ cwd: appWith('bench.config.ts', 'export default { targets: [ };'), args: ['run'] }),
    /^bench: BENCH_ERR_CONFIG: config bench\.config\.ts: it cannot be loaded: /,
  ],
  [
    'no default export object',
    () => ({ cwd: appWith('bench.config.mjs', 'export const x = 1;'), args: ['run'] }),
    /default export must be an object/,
  ],
  [
    'unknown key',
    () => ({ cwd: appWith('bench.config.json', '{ "targetz": [] }'), args: ['run'] }),
    /^bench: BENCH_ERR_CONFIG: config bench\.config\.json: the top level: Unrecognized key: "targetz"$/,
  ],
  [
    'wrong type',
    () => ({ cwd: appWith('bench.config.json', '{ "defaults": { "concurrency": 5 } }'), args: ['run', 'hello'] }),
    /^bench: BENCH_ERR_CONFIG: config bench\.config\.json: defaults\.concurrency: expected array, received number$/,
  ],
  [
    'a number past its range',
    () => ({ cwd: appWith('bench.config.json', '{ "defaults": { "pipelining": 2000 } }'), args: ['run', 'hello'] }),
    /^bench: BENCH_ERR_CONFIG: config bench\.config\.json: defaults\.pipelining: must be from 1 to 1024$/,
  ],
  [
    'bad threshold expression',
    () => ({ cwd: appWith('bench.config.mjs', `export default { ${scenario}, thresholds: { '*': { rps: 'fast' } } };`), args: ['run'] }),
    /config bench\.config\.mjs: thresholds\.\*\.rps: an expression such as ">1000"/,
  ],
  [
    'unknown built-in target',
    () => ({ cwd: appWith('bench.config.mjs', "export default { targets: ['nginx-dynamic'] };"), args: ['run', 'hello'] }),
    /config bench\.config\.mjs: targets\.0: unknown built-in target "nginx-dynamic"; known: node, /,
  ],
  [
    'unknown reporter',
    () => ({ cwd: appWith('bench.config.mjs', `export default { ${scenario}, targets: ['node'], reporters: ['fancy'] };`), args: ['run'] }),
    /unknown reporter "fancy"/,
  ],
  [
    'target module that is not a plugin',
    () => {
      const cwd = appWith('bench.config.mjs', `export default { ${scenario}, targets: ['./target.mjs'] };`);
      writeFileSync(path.join(cwd, 'target.mjs'), 'export default { name: "half" };');
      return { cwd, args: ['run'] };
    },
    /targets\.0: the default export of \.\/target\.mjs is not a target plugin/,
  ],
  [
    'a command that exits at start',
    () => ({
      cwd: appWith(
        'bench.config.mjs',
        `export default { ${scenario}, targets: [{ name: 'app', command: 'node', args: ['-e', "console.error('cannot read config.yml'); process.exit(3)"] }] };`,
      ),
      args: ['run', '-d', '1'],
    }),
    /^bench: BENCH_ERR_APP_TARGET: target "app" \(your server\) did not start: .*exited with code 3.*cannot read config\.yml/,
  ],
  [
    'a ready path that never answers 2xx',
    () => ({
      cwd: appWith(
        'bench.config.mjs',
        `export default { ${scenario}, targets: [{ name: 'app', command: 'node', args: ['-e', ${JSON.stringify(server404)}], ready: { path: '/health', timeoutSeconds: 1 } }] };`,
      ),
      args: ['run', '-d', '1'],
    }),
    /^bench: BENCH_ERR_APP_TARGET: target "app" \(your server\) did not start: .*\/health not ready after 1000 ms \(last: HTTP 404/,
  ],
  // workloads: found before anything starts, naming the scenario and the step
  [
    'an unknown template function',
    () => ({
      cwd: appWith('bench.config.mjs', "export default { scenarios: [{ name: 'ids', path: '/items/{{rand 1 5}}' }] };"),
      args: ['run'],
    }),
    /^bench: BENCH_ERR_CONFIG: config bench\.config\.mjs: scenario "ids", step "ids": \{\{rand 1 5\}\}: unknown template function "rand" \(known: counter, randomInt/,
  ],
  [
    'a missing data file',
    () => ({
      cwd: appWith(
        'bench.config.mjs',
        "export default { scenarios: [{ name: 'u', path: '/u/{{row.name}}', data: { file: 'users.csv' } }] };",
      ),
      args: ['run'],
    }),
    /^bench: BENCH_ERR_CONFIG: config bench\.config\.mjs: scenario "u": data file \/.*\/users\.csv cannot be read \(ENOENT\)$/,
  ],
  [
    'a data file without the column',
    () => {
      const cwd = appWith(
        'bench.config.mjs',
        "export default { scenarios: [{ name: 'u', path: '/u/{{row.email}}', data: { file: 'users.csv' } }] };",
      );
      writeFileSync(path.join(cwd, 'users.csv'), 'name\nann\n');
      return { cwd, args: ['run'] };
    },
    /config bench\.config\.mjs: scenario "u", step "u": \{\{row\.email\}\}: the data file has no column "email" \(it has name\)$/,
  ],
  [
    'a weight that is not a positive number',
    () => ({
      cwd: appWith('bench.config.mjs', "export default { scenarios: [{ name: 'm', mix: [{ name: 'a', path: '/', weight: 0 }] }] };"),
      args: ['run'],
    }),
    /^bench: BENCH_ERR_CONFIG: config bench\.config\.mjs: scenarios\.0\.mix\.0\.weight: a weight is a positive number$/,
  ],
  [
    'a capture that finds nothing when the flow is verified',
    () => ({
      cwd: appWith(
        'bench.config.mjs',
        `export default { targets: [{ name: 'app', command: 'node', args: ['-e', ${JSON.stringify(
          "require('node:http').createServer((q, r) => r.end('{}')).listen(Number(process.env.PORT), process.env.HOST)",
        )}] }], scenarios: [{ name: 'f', steps: [{ name: 'login', once: true, path: '/login', capture: { token: { json: 'token' } } }, { name: 'me', path: '/me', headers: { authorization: 'Bearer {{token}}' } }] }] };`,
      ),
      args: ['run', '-d', '1'],
    }),
    /^bench: BENCH_ERR_USAGE: scenario "f": step login: capture token \(json token\) found nothing in: \{\}; fix the capture or the step$/,
  ],
  [
    'a flow given to an engine that runs fixed requests only',
    () => ({
      cwd: appWith(
        'bench.config.mjs',
        `export default { targets: [{ name: 'app', command: 'node', args: ['-e', ${JSON.stringify(server404)}] }], scenarios: [{ name: 'f', steps: [{ name: 'a', path: '/a' }, { name: 'b', path: '/b' }] }] };`,
      ),
      args: ['run', '--engine', 'ab'],
    }),
    /^bench: BENCH_ERR_ENGINE_UNSUPPORTED: engine "ab" cannot do this: scenario "f" needs flows \(steps, captures, once\), which ab does not run; use --engine autocannon/,
  ],
];

describe('config errors', () => {
  it.each(cases)('%s', async (_name, make, message) => {
    const { cwd, args } = make();
    let watch: ReturnType<typeof watchDescendants> | undefined;
    const run = await runCli(args, { cwd, onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)) });
    watch?.stop();
    // progress lines (what runs, what starts) may come before the error
    const errors = run.stderr
      .trim()
      .split('\n')
      .filter((line) => !/^bench: (\d+ cell|journal|starting|verifying|skipping)/.test(line));
    expect(errors, run.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(message);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await watch?.survivors()).toEqual([]);
  });
});
