import { describe, expect, it } from 'vitest';
import { cores } from '../support/probe.js';
import { FCGID_DEFAULT_MAX_PER_CLASS, fcgidPoolDirectives, fcgidPoolSize } from './fcgid-pool.js';

describe("mod_fcgid's pool", () => {
  it("holds a php-cgi per connection of the run, at least one per core, at most mod_fcgid's default cap; --workers decides alone", () => {
    expect(fcgidPoolSize(undefined, 10)).toBe(Math.max(10, cores()));
    expect(fcgidPoolSize(undefined, 1)).toBe(cores());
    expect(fcgidPoolSize(undefined, undefined)).toBe(cores());
    expect(fcgidPoolSize(undefined, 3000)).toBe(FCGID_DEFAULT_MAX_PER_CLASS);
    expect(fcgidPoolSize(2, 10)).toBe(2);
  });

  it('keeps every process of the pool and lets it spawn whole: the spawn score leaves room for all of it', () => {
    expect(fcgidPoolDirectives(10)).toEqual([
      'FcgidMaxProcesses 10',
      'FcgidMaxProcessesPerClass 10',
      'FcgidMinProcessesPerClass 10',
      'FcgidSpawnScoreUpLimit 20',
    ]);
  });
});
