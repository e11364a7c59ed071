import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { GitInfo } from './history-entry.js';

const run = promisify(execFile);

async function git(dir: string, args: readonly string[]): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', [...args], { cwd: dir, timeout: 10_000 });
    const text = stdout.trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined; // not a repository, no git, or no such ref: the caller's flags fill in
  }
}

/** "git@github.com:o/r.git" or "https://user@host/o/r.git" -> "https://github.com/o/r"; undefined for a local path. */
export function repositoryWebUrl(remote: string): string | undefined {
  const scp = /^[\w.-]+@([\w.-]+):(.+?)(?:\.git)?\/?$/.exec(remote);
  if (scp) return `https://${scp[1]}/${scp[2]}`;
  try {
    const url = new URL(remote);
    if (!['http:', 'https:', 'ssh:', 'git:'].includes(url.protocol)) return undefined;
    return `https://${url.hostname}${url.pathname.replace(/\.git\/?$/, '').replace(/\/$/, '')}`;
  } catch {
    return undefined;
  }
}

/** The web page of one commit (GitHub, GitLab and Gitea all serve /commit/SHA... GitLab under /-/). */
export function commitUrl(repositoryUrl: string | undefined, commit: string | undefined): string | undefined {
  if (!repositoryUrl || !commit) return undefined;
  return repositoryUrl.includes('gitlab') ? `${repositoryUrl}/-/commit/${commit}` : `${repositoryUrl}/commit/${commit}`;
}

/** Commit, branch, commit time and repository address of `dir`, as git reports them; {} outside a repository. */
export async function readGitInfo(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<GitInfo> {
  const commit = await git(dir, ['rev-parse', 'HEAD']);
  if (!commit) return {};
  const [branchName, commitTime, remote] = await Promise.all([
    git(dir, ['rev-parse', '--abbrev-ref', 'HEAD']),
    git(dir, ['show', '-s', '--format=%cI', 'HEAD']),
    git(dir, ['remote', 'get-url', 'origin']),
  ]);
  // CI checks out a detached HEAD: its branch is in the environment
  const branch =
    branchName && branchName !== 'HEAD' ? branchName : env['GITHUB_HEAD_REF'] || env['GITHUB_REF_NAME'] || env['CI_COMMIT_REF_NAME'];
  const repositoryUrl = remote ? repositoryWebUrl(remote) : undefined;
  return {
    commit,
    ...(branch ? { branch } : {}),
    ...(commitTime ? { commitTime: new Date(commitTime).toISOString() } : {}),
    ...(repositoryUrl ? { repositoryUrl } : {}),
  };
}

/** Flags over git's answers: --commit, --branch, --commit-time given by hand win. */
export function mergeGitInfo(fromGit: GitInfo, given: GitInfo): GitInfo {
  return { ...fromGit, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
}
