import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { repoRoot, runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';
import { recordOnExit } from '../support/record-on-exit.js';

// A server that records every value it receives: what bench generated is checked on the server's side.
const server = path.join(repoRoot, 'test', 'fixtures', 'servers', 'recording-server.mjs');

function writeConfig(dir: string, scenarios: unknown[], extra = ''): string {
  const file = path.join(dir, 'bench.config.mjs');
  writeFileSync(
    file,
    `export default {
  targets: [{ name: 'rec', command: process.execPath, args: [${JSON.stringify(server)}], ready: { path: '/health' } }],
  scenarios: ${JSON.stringify(scenarios)},
  reporters: [['json', { out: 'results.json' }]],
  ${extra}
};
`,
  );
  return file;
}

/** Runs the config, then reads what the server recorded (written by recordOnExit's wrapper as bench stops it). */
async function runAndRecord(dir: string, args: string[]): Promise<{ values: string[]; requests: number }> {
  const run = await runCli(['run', '--config', path.join(dir, 'bench.config.mjs'), '-w', '0', ...args], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  const doc = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')));
  const cell = doc.results[0]!;
  expect(cell.status, cell.error).toBe('ok');
  const values = JSON.parse(readFileSync(path.join(dir, 'received.json'), 'utf8')) as string[];
  return { values, requests: cell.requests };
}

describe('generated values', () => {
  it('randomInt stays inside its range and spreads over it; counters are unique across connections and two client threads', async () => {
    const dir = testTempDir('workload-values');
    const { wrapper } = recordOnExit(dir, server, '/__received');
    writeConfig(dir, [{ name: 'ids', path: '/v/{{randomInt 10 29}}' }]);
    const config = readFileSync(path.join(dir, 'bench.config.mjs'), 'utf8').replace(JSON.stringify(server), JSON.stringify(wrapper));
    writeFileSync(path.join(dir, 'bench.config.mjs'), config);
    const ids = await runAndRecord(dir, ['-c', '8', '-n', '4000']);
    // the verification request and the 4,000 measured
    expect(ids.values).toHaveLength(4001);
    const numbers = ids.values.map(Number);
    expect(Math.min(...numbers)).toBe(10);
    expect(Math.max(...numbers)).toBe(29);
    for (let id = 10; id <= 29; id++) expect(numbers.filter((n) => n === id).length).toBeGreaterThan(100); // 200 expected each

    writeFileSync(
      path.join(dir, 'bench.config.mjs'),
      config.replace(
        JSON.stringify([{ name: 'ids', path: '/v/{{randomInt 10 29}}' }]),
        JSON.stringify([{ name: 'ids', method: 'POST', path: '/v', body: 'n={{counter}}' }]),
      ),
    );
    const counted = await runAndRecord(dir, ['-c', '10', '-n', '3000', '--client-threads', '2']);
    // verification's request takes 0, the load's 1 and up
    expect(counted.values[0]).toBe('n=0');
    expect(counted.values).toHaveLength(3001);
    expect(new Set(counted.values).size).toBe(3001);
  });

  it('wrk makes them through its Lua: a mix in its shares, counters unique over two threads, ids inside their range', async () => {
    const dir = testTempDir('workload-wrk');
    const { wrapper } = recordOnExit(dir, server, '/__received');
    const file = writeConfig(dir, [
      {
        name: 'wrk-mix',
        mix: [
          { name: 'ids', weight: 3, path: '/v/id-{{randomInt 5 9}}' },
          { name: 'names', weight: 1, method: 'POST', path: '/v', body: 'n-{{counter}}' },
        ],
      },
    ]);
    writeFileSync(file, readFileSync(file, 'utf8').replace(JSON.stringify(server), JSON.stringify(wrapper)));
    // pinned to two client CPUs, wrk runs two threads
    const run = await runCli(
      ['run', '--config', file, '-w', '0', '-c', '4', '-d', '1', '--engine', 'wrk', '--cpus', 'server=0,client=0-1'],
      {
        cwd: dir,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const cell = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'))).results[0]!;
    expect(cell.failed).toBe(0);
    expect(
      cell.notes.some((n) =>
        /^wrk cannot tell which step an answer belongs to: requests sent by step (ids 75\.\d%, names 2\d\.\d%|names 2\d\.\d%, ids 75\.\d%)/.test(
          n,
        ),
      ),
    ).toBe(true);
    const values = (JSON.parse(readFileSync(path.join(dir, 'received.json'), 'utf8')) as string[]).slice(2); // verification's two
    const ids = values.filter((v) => v.startsWith('id-')).map((v) => Number(v.slice(3)));
    const names = values.filter((v) => v.startsWith('n-'));
    expect(new Set(ids)).toEqual(new Set([5, 6, 7, 8, 9]));
    expect(new Set(names).size).toBe(names.length);
    expect(Math.abs((ids.length / values.length) * 100 - 75)).toBeLessThan(1);
  });

  it('rows of a data file arrive in the order asked', async () => {
    const dir = testTempDir('workload-rows');
    const { wrapper } = recordOnExit(dir, server, '/__received');
    writeFileSync(path.join(dir, 'users.csv'), 'name,city\nann,oslo\nbob,rome\ncid,lima\n');
    const file = writeConfig(dir, [{ name: 'rows', path: '/v/{{row.name}}-{{row.city}}', data: { file: 'users.csv' } }]);
    writeFileSync(file, readFileSync(file, 'utf8').replace(JSON.stringify(server), JSON.stringify(wrapper)));
    const { values } = await runAndRecord(dir, ['-c', '1', '-n', '7']);
    // verification takes its own row first; one connection then takes them in turn
    expect(values).toEqual(['ann-oslo', 'ann-oslo', 'bob-rome', 'cid-lima', 'ann-oslo', 'bob-rome', 'cid-lima', 'ann-oslo']);
  });
});
