import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitUrl, mergeGitInfo, readGitInfo, repositoryWebUrl } from './git-info.js';
import { historyFilePath } from './run-history.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-history-git-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('where a run is recorded', () => {
  it('bench-history.jsonl beside the config for --history alone, a path from there when one is given', () => {
    expect(historyFilePath(true, '/app')).toBe('/app/bench-history.jsonl');
    expect(historyFilePath('perf/h.jsonl', '/app')).toBe('/app/perf/h.jsonl');
    expect(historyFilePath('/elsewhere/h.jsonl', '/app')).toBe('/elsewhere/h.jsonl');
    expect(historyFilePath(false, '/app')).toBeUndefined();
    expect(historyFilePath(undefined, '/app')).toBeUndefined();
  });
});

describe('git metadata', () => {
  it("turns a remote into the repository's web address and a commit's page", () => {
    expect(repositoryWebUrl('git@github.com:example/app.git')).toBe('https://github.com/example/app');
    expect(repositoryWebUrl('https://token@github.com/example/app.git')).toBe('https://github.com/example/app');
    expect(repositoryWebUrl('ssh://git@gitlab.example.com/group/app.git')).toBe('https://gitlab.example.com/group/app');
    expect(repositoryWebUrl('/srv/git/app.git')).toBeUndefined();
    expect(commitUrl('https://github.com/example/app', 'abc')).toBe('https://github.com/example/app/commit/abc');
    expect(commitUrl('https://gitlab.example.com/group/app', 'abc')).toBe('https://gitlab.example.com/group/app/-/commit/abc');
    expect(commitUrl(undefined, 'abc')).toBeUndefined();
  });

  it('reads commit, branch and commit time from a repository; nothing outside one; flags win', async () => {
    const outside = path.join(dir, 'plain');
    const repo = path.join(dir, 'repo');
    execFileSync('mkdir', ['-p', outside, repo]);
    const env = {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CEILING_DIRECTORIES: dir,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
      GIT_COMMITTER_DATE: '2026-01-31T12:00:00Z',
    };
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env }).toString().trim();
    git('init', '-q', '-b', 'trunk');
    writeFileSync(path.join(repo, 'a'), 'a');
    git('add', 'a');
    git('commit', '-q', '-m', 'a');
    const info = await readGitInfo(repo, {});
    expect(info).toEqual({ commit: git('rev-parse', 'HEAD'), branch: 'trunk', commitTime: '2026-01-31T12:00:00.000Z' });
    git('checkout', '-q', '--detach');
    expect((await readGitInfo(repo, { GITHUB_REF_NAME: 'from-ci' })).branch).toBe('from-ci');
    const previous = process.env['GIT_CEILING_DIRECTORIES'];
    process.env['GIT_CEILING_DIRECTORIES'] = dir;
    try {
      expect(await readGitInfo(outside, {})).toEqual({});
    } finally {
      if (previous === undefined) delete process.env['GIT_CEILING_DIRECTORIES'];
      else process.env['GIT_CEILING_DIRECTORIES'] = previous;
    }
    expect(mergeGitInfo(info, { commit: 'given', branch: undefined })).toEqual({ ...info, commit: 'given' });
  });
});
