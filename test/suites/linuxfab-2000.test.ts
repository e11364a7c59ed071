import { describe, expect, it } from 'vitest';
import { runSuite } from '../support/suite-run.js';

// Suite linuxfab-2000 at a tiny scale on the real stacks: the article's rows and columns, its figures beside ours.
describe('bench suite linuxfab-2000', () => {
  it("linuxfab-2000: the Windows and Linux rows as published, today's Apache + mod_php beside them with ab's block", async () => {
    const { text } = await runSuite('linuxfab-2000', '0.01');
    expect(text).toMatch(/^\| Requests per second \| 166\.84 \| 175\.4 \| 287\.56 \| 193\.32 \| [\d,.]+ \|$/m);
    expect(text).toMatch(/^- Apache \+ mod_php \(today\): [\d.]+ now$/m);
    expect(text.match(/ab's report for Apache \+ mod_php \(today\) today:/g)).toHaveLength(3);
  });
});
