import { describe, expect, it } from 'vitest';
import { openFilesNeeded, readOpenFilesLimit } from './open-files.js';

describe('open files', () => {
  it('needs two descriptors per connection when it starts the servers (they inherit its limit), one against --url, plus slack', () => {
    expect(openFilesNeeded(3000)).toBe(6512);
    expect(openFilesNeeded(3000, false)).toBe(3512);
  });

  it('reads this process limit from /proc', () => {
    const limit = readOpenFilesLimit();
    expect(limit?.soft).toBeGreaterThan(0);
    expect(limit?.hard).toBeGreaterThanOrEqual(limit?.soft ?? Infinity);
  });
});
