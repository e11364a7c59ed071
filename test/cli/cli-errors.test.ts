import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTempDir } from '../support/temp-dir.js';
import { cliPath, runCli, runProcess } from '../support/cli.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';

const tmp = testTempDir('errors');
const throwingReporter = path.join(tmp, 'throws.mjs');
writeFileSync(throwingReporter, "throw new Error('broken on purpose');\n");
const truncatedResults = path.join(tmp, 'truncated.json');
writeFileSync(truncatedResults, '{"schemaVersion": 1, "tool": {"name": "bench"');
const foreignResults = path.join(tmp, 'package.json');
writeFileSync(foreignResults, JSON.stringify({ name: 'not-bench', version: '1.0.0' }));
const failingHookReporter = path.join(tmp, 'fails-on-result.mjs');
writeFileSync(failingHookReporter, "export default { onResult() { throw new Error('cannot write'); } };\n");

let busy: net.Server;
let busyPort = 0;
beforeAll(async () => {
  busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

// Each bad input: one line on stderr that names the problem, exit code 2, no stack trace, nothing left running.
const cases: Array<[string, () => string[], RegExp]> = [
  ['unknown scenario', () => ['run', 'nope'], /unknown scenario "nope"; known scenarios: .*hello/],
  ['unknown target', () => ['run', 'hello', '-t', 'nope'], /unknown target "nope"/],
  ['unknown reporter', () => ['run', 'hello', '-t', 'node', '--reporter', 'nope'], /unknown reporter "nope"/],
  [
    'reporter module that throws',
    () => ['run', 'hello', '-t', 'node', '--reporter', throwingReporter],
    /failed to load reporter .*broken on purpose/,
  ],
  ['zero concurrency', () => ['run', 'hello', '-c', '0'], /-c "0" is not valid/],
  ['negative concurrency', () => ['run', 'hello', '-c', '-5'], /-c|option/],
  ['non-numeric concurrency', () => ['run', 'hello', '-c', 'many'], /-c "many" is not valid/],
  ['zero duration', () => ['run', 'hello', '-d', '0'], /-d "0" is not valid/],
  ['non-numeric requests', () => ['run', 'hello', '-n', 'ten'], /-n "ten" is not valid/],
  // numbers past their ranges (docs/running.md#ranges)
  [
    'concurrency past the local ports',
    () => ['run', 'hello', '-c', '10,64512'],
    /--concurrency "10,64512" is not valid: expected from 1 to 64511/,
  ],
  ['pipelining past 1024', () => ['run', 'hello', '-p', '10000'], /--pipelining "10000" is not valid: expected from 1 to 1024/],
  [
    'a timeout past an hour',
    () => ['run', 'hello', '--timeout', '10000000000'],
    /--timeout "10000000000" is not valid: expected from 0\.001 to 3600/,
  ],
  [
    'a checked body past 1 GiB',
    () => ['run', 'hello', '--max-checked-body', '2GiB'],
    /--max-checked-body "2GiB" is not valid: expected from 1024 to 1073741824/,
  ],
  ['selfbench rounds past 1000', () => ['selfbench', '--rounds', '1001'], /--rounds "1001" is not valid: expected from 1 to 1000/],
  [
    'compare noise past 100%',
    () => ['compare', 'base.json', 'head.json', '--noise', '150%'],
    /--noise "150%" is not valid: expected from 0 to 100/,
  ],
  ['duration with requests', () => ['run', 'hello', '-d', '1', '-n', '100'], /-d \(duration\) and -n \(requests\) cannot be used together/],
  ['requests below concurrency', () => ['run', 'hello', '-n', '5', '-c', '10'], /-n 5 is smaller than -c 10/],
  [
    'port in use',
    () => ['run', 'hello', '-t', 'node', '-d', '1', '--warmup', '0', '--port', String(busyPort)],
    /port \d+ on 127\.0\.0\.1 is already in use/,
  ],
  [
    'reporter module path that does not exist',
    () => ['run', 'hello', '-t', 'node', '--reporter', './no/such/reporter.mjs'],
    /failed to load reporter .*no file at/,
  ],
  [
    'report of a missing file',
    () => ['report', path.join(tmp, 'missing.json')],
    /results file .*missing\.json" cannot be used: no such file/,
  ],
  ['report of a truncated file', () => ['report', truncatedResults], /cannot be used: it is not valid JSON \(truncated/],
  ["report of a file that is not bench's", () => ['report', foreignResults], /cannot be used: it is not a bench results file/],
  [
    'report checks the file before loading reporters',
    () => ['report', truncatedResults, '--reporter', 'nope'],
    /cannot be used: it is not valid JSON/,
  ],
  ['serve with an unknown scenario', () => ['serve', 'node', 'nope'], /unknown scenario "nope"/],
  ['verify with an unknown target', () => ['verify', 'hello', '-t', 'nope'], /unknown target "nope"/],
  ['verify with no jobs', () => ['verify', 'hello', '--jobs', '0'], /--jobs "0" is not valid: expected a whole number greater than 0/],
  [
    'bad reporter option',
    () => ['run', 'hello', '-t', 'node', '--reporter-option', 'novalue'],
    /--reporter-option "novalue" must look like key=value/,
  ],
  ['serve with an unknown target', () => ['serve', 'nope', 'hello'], /unknown target "nope"/],
  [
    '--out in a directory that does not exist',
    () => ['run', 'hello', '-t', 'node', '--reporter', 'json', '--out', path.join(tmp, 'no', 'such', 'dir', 'r.json')],
    /cannot write --out file .*r\.json": the directory .* does not exist/,
  ],
  ['--out naming a directory', () => ['run', 'hello', '-t', 'node', '--out', tmp], /cannot write --out file .*": it is a directory/],
  [
    '--out under a file',
    () => ['run', 'hello', '-t', 'node', '--out', path.join(throwingReporter, 'r.md')],
    /cannot write --out file .*: .*throws\.mjs is not a directory/,
  ],
  ['no scenario and no config', () => ['run'], /name at least one scenario/],
  [
    'a secret header on an engine that puts headers on its command line',
    () => ['run', '--url', `http://127.0.0.1:${busyPort}/`, '-H', 'Authorization: Bearer abc123', '-e', 'ab', '-n', '10', '-c', '1'],
    /engine "ab" cannot do this: scenario ".*" sends Authorization, a secret header, and ab takes headers on its command line, where any user of this machine can read them: use --engine /,
  ],
  [
    '--database-host without --server-host',
    () => ['run', 'hello', '--database-host', 'ssh://db'],
    /--database-host .*: give --server-host too/,
  ],
  [
    '--server-host that is not an ssh URL',
    () => ['run', 'hello', '--server-host', 'http://10.0.0.2'],
    /--server-host "http:\/\/10\.0\.0\.2" is a http URL, not ssh/,
  ],
  ['unknown option', () => ['run', 'hello', '--bogus'], /unknown option '--bogus'/],
];

describe('bad input', () => {
  it.each(cases)('%s', async (_name, args, message) => {
    const before = serverProcesses();
    const run = await runCli(args());
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    // a BenchError line starts with its code; commander's own (an unknown option) with error:
    expect(lines[0]).toMatch(/^bench: (BENCH_ERR_[A-Z_]+|error): /);
    expect(lines[0]).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await leftoverServers(before)).toEqual([]);
  });

  it('output into a pipe whose reader stopped reading is dropped, not a crash', async () => {
    // head reads the first line and exits; bench's later writes meet a closed pipe (EPIPE)
    const run = await runProcess('bash', [
      '-c',
      `"${process.execPath}" "${cliPath}" --help | head -1; echo "bench exit \${PIPESTATUS[0]}"`,
    ]);
    expect(run.stdout).toBe('Usage: bench [options] [command]\nbench exit 0\n');
    expect(run.stderr).toBe('');
  });

  it('a reporter that throws mid-run stops the run with a clear error and keeps the JSON results', async () => {
    const out = path.join(tmp, 'kept.json');
    const before = serverProcesses();
    const run = await runCli([
      'run',
      'hello',
      '-c',
      '2',
      '-n',
      '100',
      '--warmup',
      '0',
      '-t',
      'node',
      '--reporter',
      'json',
      '--out',
      out,
      '--reporter',
      failingHookReporter,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/reporter ".*" failed in onResult: cannot write/);
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(out, 'utf8')).results).toHaveLength(1);
    expect(await leftoverServers(before)).toEqual([]);
  });
});
