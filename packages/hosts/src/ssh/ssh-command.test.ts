import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BENCH_EXIT, remoteBenchCommand, shellQuote, sshArguments } from './ssh-command.js';
import { parseSshUrl } from './ssh-url.js';

const sh = (command: string) => spawnSync('sh', ['-c', command], { encoding: 'utf8' });

describe('the command ssh runs', () => {
  it('never prompts, notices a silent host, and puts the host after --', () => {
    const args = sshArguments(parseSshUrl('--server-host', 'ssh://bench@lab:2222'), { sshConfig: '/cfg' }, ['agent']);
    expect(args.slice(0, 2)).toEqual(['-F', '/cfg']);
    expect(args).toContain('BatchMode=yes');
    expect(args).toContain('ServerAliveInterval=2');
    expect(args.slice(args.indexOf('-p'), args.indexOf('-p') + 2)).toEqual(['-p', '2222']);
    expect(args.slice(args.indexOf('-l'), args.indexOf('-l') + 2)).toEqual(['-l', 'bench']);
    expect(args.at(-3)).toBe('--');
    expect(args.at(-2)).toBe('lab');
  });

  it('quotes a folder whatever it holds', () => {
    expect(sh(`printf %s ${shellQuote("it's $HOME; `x`")}`).stdout).toBe("it's $HOME; `x`");
  });

  it('runs the install in --remote-dir, and says there is none with its own exit code', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'benchtest-remote-dir-'));
    try {
      const missing = sh(remoteBenchCommand({ remoteDir: dir }, ['agent']));
      expect(missing.status).toBe(NO_BENCH_EXIT);
      expect(missing.stderr).toMatch(/^bench-agent: no bench installed in /);
      mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
      const bin = path.join(dir, 'node_modules', '.bin', 'bench');
      writeFileSync(path.join(dir, 'package.json'), '{"name":"x","version":"1.0.0"}\n');
      writeFileSync(bin, '#!/bin/sh\necho "bench $*"\n');
      chmodSync(bin, 0o755);
      const found = sh(remoteBenchCommand({ remoteDir: dir }, ['agent', 'a b']));
      expect(found.status, found.stderr).toBe(0);
      expect(found.stdout.trim()).toBe('bench agent a b');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
