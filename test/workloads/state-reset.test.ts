import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema, type CellResult } from '@bench/core';
import { repoRoot, runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// An app that keeps its data in a JSON file: a create cell grows it, and a list cell after it sees a different app
// unless the target names a reset.
const server = path.join(repoRoot, 'test', 'fixtures', 'servers', 'file-store-server.mjs');
const ORIGINAL = JSON.stringify([
  { id: 1, name: 'a' },
  { id: 2, name: 'b' },
  { id: 3, name: 'c' },
]);

async function runStore(reset: string): Promise<CellResult[]> {
  const dir = testTempDir('state-reset');
  writeFileSync(path.join(dir, 'items.json'), ORIGINAL);
  writeFileSync(
    path.join(dir, 'bench.config.mjs'),
    `export default {
  targets: [{ name: 'store', command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(server)}], ready: { path: '/items' }${reset} }],
  scenarios: [
    { name: 'list', path: '/items', expect: { bodyMatches: '^\\\\{"count":3,' } },
    { name: 'create', method: 'POST', path: '/items', body: 'x', expect: { status: 201 } },
  ],
  reporters: [['json', { out: 'results.json' }]],
};
`,
  );
  // seed 8's first round runs create before list, its second list before create; at two levels, a stopped target is
  // reset and started again between them
  const run = await runCli(['run', '-c', '2,4', '-n', '200', '-w', '0', '--repeat', '2', '--seed', '8'], { cwd: dir, timeoutMs: 90_000 });
  expect([0, 1], run.stderr).toContain(run.code);
  return runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'))).results;
}

const order = (results: readonly CellResult[], repeat: number) =>
  results
    .filter((r) => r.repeat === repeat)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
    .map((r) => r.scenario)
    .filter((scenario, i, all) => all[i - 1] !== scenario);

describe('a target that resets its state', () => {
  it('restores its files before every cell: the list cell sees the original data whether create ran before it or after', async () => {
    const results = await runStore(", reset: { files: ['items.json'] }");
    expect([order(results, 1), order(results, 2)].map((o) => o.join(','))).toEqual(expect.arrayContaining(['create,list', 'list,create']));
    const lists = results.filter((r) => r.scenario === 'list');
    for (const list of lists) {
      expect(list.status).toBe('ok');
      expect(list.failed, list.notes.join('; ')).toBe(0);
      expect(list.notes).toContain('state reset before this cell: items.json restored (target stopped)');
    }
  });

  it('without a reset, a list cell after the create cell measures a different app, and the create cell says so', async () => {
    const results = await runStore('');
    const round = [1, 2].find((repeat) => order(results, repeat)[0] === 'create')!;
    const list = results.find((r) => r.scenario === 'list' && r.repeat === round)!;
    expect(list.failed).toBe(list.requests);
    const create = results.find((r) => r.scenario === 'create')!;
    expect(create.notes.some((n) => n.startsWith('this cell wrote (POST requests) and target store names no reset'))).toBe(true);
  });
});
