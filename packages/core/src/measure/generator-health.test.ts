import { describe, expect, it } from 'vitest';
import { watchGeneratorHealth } from './generator-health.js';

describe('the generator health watch', () => {
  it('reads a run shorter than one turn of the event loop as no lag, never NaN (JSON would write null)', () => {
    const { eventLoopDelay } = watchGeneratorHealth().stop();
    expect(eventLoopDelay).toEqual({ mean: 0, p99: 0, max: 0 });
  });
});
