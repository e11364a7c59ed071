import { describe, expect, it } from 'vitest';
import { settledWithin } from './settled-within.js';

describe('settledWithin', () => {
  it("gives the promise's value and leaves no timer behind", async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(await settledWithin(Promise.resolve(7), 60_000)).toBe(7);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });

  it('gives undefined when the promise takes longer', async () => {
    expect(await settledWithin(new Promise(() => {}), 20)).toBeUndefined();
  });

  it('clears its timer when the promise fails, and passes the failure on', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await expect(settledWithin(Promise.reject(new Error('no')), 60_000)).rejects.toThrow('no');
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });
});
