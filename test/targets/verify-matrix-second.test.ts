import { describe, it } from 'vitest';
import { matrixHalves, verifyMatrix } from '../support/verify-matrix.js';

// The second half of verify-matrix.test.ts's targets, in a file of its own so the halves run side by side.
describe('bench verify, whole matrix (second half)', () => {
  it('passes for every target of the second half on every scenario it supports, from a checkout in a 0700 directory, and leaves nothing running', async () => {
    await verifyMatrix(matrixHalves[1]);
  }, 420_000);
});
