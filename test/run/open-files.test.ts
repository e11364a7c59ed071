import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../support/cli.js';

// Runs the CLI under a given open-files limit (prlimit sets soft:hard for the new process).
function runWithLimit(limit: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('prlimit', [`--nofile=${limit}`, process.execPath, cliPath, ...args], {
      cwd: repoRoot,
      env: { ...process.env, CI: 'true' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('open-files limit', () => {
  it('raises a low soft limit itself when the hard limit allows, and the run has no failures', async () => {
    const run = await runWithLimit('1024:20000', [
      'run',
      'hello',
      '-t',
      'node',
      '-c',
      '1500',
      // a request on each connection: the run needs its 1,500 sockets open, not a second of load on them
      '-n',
      '1500',
      '--warmup',
      '0',
      '--reporter',
      'json',
    ]);
    expect(run.stderr).not.toMatch(/EMFILE|open files/);
    expect(run.code).toBe(0);
    const [result] = JSON.parse(run.stdout).results;
    expect(result).toMatchObject({ concurrency: 1500, status: 'ok', failed: 0 });
  });

  it('says exactly what to run when the hard limit is too low', async () => {
    const run = await runWithLimit('1024:1024', ['run', 'hello', '-t', 'node', '-c', '1500', '-d', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^bench: BENCH_ERR_OPEN_FILES: this run needs about 3512 open files but the limit is 1024 \(hard 1024\); run `ulimit -n 3512`/,
    );
  });
});
