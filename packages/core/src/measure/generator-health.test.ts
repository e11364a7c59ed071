import { describe, expect, it } from 'vitest';
import { watchGeneratorHealth } from './generator-health.js';

describe('the generator health watch', () => {
  it('says nothing of the delay of a run shorter than one turn of the event loop (never NaN, which JSON writes as null)', () => {
    expect(watchGeneratorHealth().stop().eventLoopDelay).toBeUndefined();
  });
});
