import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { K6_VERSION } from './k6-binary.js';

describe('the pinned k6', () => {
  it('is the one the setup script builds', () => {
    const setup = readFileSync(new URL('../../../../scripts/setup/setup-system.sh', import.meta.url), 'utf8');
    expect(/^K6_VERSION=(\S+)$/m.exec(setup)?.[1]).toBe(K6_VERSION);
  });
});
