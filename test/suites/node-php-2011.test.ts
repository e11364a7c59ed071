import { describe, expect, it } from 'vitest';
import { runSuite } from '../support/suite-run.js';

// Suite node-php-2011 at a tiny scale on the real stacks: the article's rows and columns, its figures beside ours.
describe('bench suite node-php-2011', () => {
  it('node-php-2011: the node variants at three levels and node2 vs PHP, rps, 80%req and fail beside 2011', async () => {
    // node (node0) and PHP only: the other variants' rows stay unmeasured, as -t asks
    // one round: the rounds and their intervals are the php-sapi-centos5 test's
    const { text, doc } = await runSuite('node-php-2011', '0.01', ['--repeat', '1', '-t', 'node,php-fpm']);
    // 3000, 5000, 7000 scaled to 30, 50, 70 connections
    expect(new Set(doc.results.map((r) => r.concurrency))).toEqual(new Set([30, 50, 70]));
    // the variants are the columns: each header names its target, and there is no "today" column
    expect(text).toMatch(/^\| c \| node0 rps \(node\) \| node0 80%req \(node\) \|/m);
    expect(text).toMatch(/^\| node0 rps \(node\) \| 4,025 \| [\d,.]+ \| 3,913 \| [\d,.]+ \| 3,823 \| [\d,.]+ \|$/m);
    expect(text).toMatch(/^\| node1 rps \(node-cluster, not run: not selected \(-t\)\) \| 5,479 \| - \| 5,283 \| - \| 5,258 \| - \|$/m);
    expect(text).toMatch(
      /^\| php c=3000 rps \(php-fpm\) \| 3,624 \| [\d,.]+ \| 1,293 \| [\d,.]+ \| 1,957 \| [\d,.]+ \| 2,015 \| [\d,.]+ \|$/m,
    );
    expect(text).toMatch(/^\| node c=3000 rps \(node-cluster-pool, not run: not selected \(-t\)\) \| 7,677 \| - \|/m);
    expect(doc.results.every((r) => r.keepAlive === false)).toBe(true);
  });
});
