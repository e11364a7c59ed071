import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { appendHistory } from './append-history.js';
import { HISTORY_SCHEMA_VERSION, type HistoryEntry } from './history-entry.js';
import { parseHistory, readHistory } from './read-history.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// how many stretches of one process's lines the file holds: 2 when one wrote all its batches before the other
function stretches(commits: readonly string[]): number {
  return commits.filter((c, i) => i === 0 || c[0] !== commits[i - 1]![0]).length;
}

function entry(rps: number, commit = 'c0ffee'): HistoryEntry {
  return {
    schemaVersion: HISTORY_SCHEMA_VERSION,
    series: 'abc',
    key: { scenario: 'hello', target: 'node', concurrency: 10, engine: 'autocannon', options: { keepAlive: true } },
    machine: { hostname: 'h', cpuModel: 'cpu', cores: 2, memoryBytes: 1 },
    git: { commit },
    run: { startedAt: '2026-01-01T00:00:00.000Z', command: 'bench run hello', repeat: 1, toolVersion: '0.1.0' },
    status: 'ok',
    metrics: { rps, mean: 1, p50: 1, p90: 1, p99: 1, p999: 1, max: 1, requests: 10, failed: 0, non2xx: 0 },
    addedAt: '2026-01-01T00:00:01.000Z',
  };
}

describe('history file', () => {
  it('reads entries back, and skips a damaged line with its line number', async () => {
    const file = path.join(dir, 'damaged.jsonl');
    await appendHistory(file, [entry(1), entry(2)]);
    writeFileSync(file, readFileSync(file, 'utf8') + '{"schemaVersion":1,"series":"abc","key":{"scen\n');
    await appendHistory(file, [entry(3)]);
    writeFileSync(file, readFileSync(file, 'utf8') + JSON.stringify({ ...entry(4), schemaVersion: 99 }) + '\n\n');
    const history = await readHistory(file);
    expect(history.entries.map((e) => e.metrics.rps)).toEqual([1, 2, 3]);
    expect(history.damaged).toEqual([
      { line: 3, reason: expect.stringMatching(/not valid JSON/) },
      { line: 5, reason: expect.stringMatching(/^not a history entry: schemaVersion/) },
    ]);
  });

  it('keeps a line left unfinished by a crash apart from the next append', async () => {
    const file = path.join(dir, 'unfinished.jsonl');
    writeFileSync(file, JSON.stringify(entry(1)).slice(0, 40));
    await appendHistory(file, [entry(2)]);
    const history = parseHistory(readFileSync(file, 'utf8'));
    expect(history.entries.map((e) => e.metrics.rps)).toEqual([2]);
    expect(history.damaged.map((d) => d.line)).toEqual([1]);
  });

  it('says how to start a history that does not exist', async () => {
    await expect(readHistory(path.join(dir, 'none.jsonl'))).rejects.toThrow(/no such file; start it with `bench run --history`/);
  });

  it('breaks a lock left by a holder that died', async () => {
    const file = path.join(dir, 'stale.jsonl');
    writeFileSync(`${file}.lock`, `999999999 ${os.hostname()} 2026-01-01T00:00:00.000Z`);
    await appendHistory(file, [entry(1)]);
    expect((await readHistory(file)).entries).toHaveLength(1);
  });

  it('two processes appending at once lose no line', async () => {
    const file = path.join(dir, 'concurrent.jsonl');
    // 50 batches each: enough to interleave (each waits for the other's first), few enough for two child processes
    // loading TypeScript through jiti as idle work beside CI's alone files (150 each did not finish in 60 s there)
    const appends = 50;
    const child = path.join(dir, 'append-child.mjs');
    // each process appends `appends` batches of 3 lines, as fast as it can
    writeFileSync(
      child,
      `import { createJiti } from ${JSON.stringify(pathToFileURL(path.join(here, '..', '..', '..', 'node_modules', 'jiti', 'lib', 'jiti.mjs')).href)};
import { readFileSync } from 'node:fs';
const jiti = createJiti(import.meta.url);
const { appendHistory } = await jiti.import(${JSON.stringify(path.join(here, 'append-history.ts'))});
const [file, who, count, line] = process.argv.slice(2);
const template = JSON.parse(line);
// start together: say ready, wait for the word
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.destroy();
const other = who === 'a' ? 'b' : 'a';
for (let i = 0; i < Number(count); i++) {
  const batch = [0, 1, 2].map((k) => ({ ...template, git: { commit: who + '-' + i + '-' + k } }));
  await appendHistory(file, batch);
  // after its first batch, each waits for the other's: a loaded machine cannot run one loop to the end alone
  if (i === 0) while (!readFileSync(file, 'utf8').includes('"' + other + '-0-0"')) await new Promise((r) => setTimeout(r, 5));
}
`,
    );
    const children: Array<ReturnType<typeof spawn>> = [];
    let ready = 0;
    const run = (who: string) =>
      new Promise<number | null>((resolve, reject) => {
        const p = spawn(process.execPath, [child, file, who, String(appends), JSON.stringify(entry(1))], { stdio: 'pipe' });
        children.push(p);
        p.stdout.once('data', () => {
          if (++ready === 2) for (const c of children) c.stdin?.write('go\n');
        });
        let stderr = '';
        p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => {
          p.kill('SIGKILL');
          reject(new Error(`append child ${who} did not finish: ${stderr}`));
        }, 150_000);
        p.on('close', (code) => {
          clearTimeout(timer);
          if (code !== 0) reject(new Error(`append child ${who} exited ${code}: ${stderr}`));
          resolve(code);
        });
      });
    await Promise.all([run('a'), run('b')]);
    const history = await readHistory(file);
    expect(history.damaged).toEqual([]);
    const commits = new Set(history.entries.map((e) => e.git.commit));
    expect(history.entries).toHaveLength(2 * appends * 3);
    expect(commits.size).toBe(2 * appends * 3);
    // both loops ran at once: their batches interleave
    expect(stretches(history.entries.map((e) => e.git.commit!))).toBeGreaterThan(2);
    // each batch stays together: one write per batch
    const order = history.entries.map((e) => e.git.commit!);
    for (let i = 0; i < order.length; i += 3)
      expect(order.slice(i, i + 3).map((c) => c.replace(/-\d$/, ''))).toEqual(Array(3).fill(order[i]!.replace(/-\d$/, '')));
  }, 180_000);
});
