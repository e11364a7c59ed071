import { describe, expect, it } from 'vitest';
import { loadSuites } from '@bench/runner';
import { row, runSuite } from '../support/suite-run.js';

// Suite techempower at a tiny scale on one real stack: TFB's table of every test type, each verified first by TFB's
// rules, then primed, warmed and measured at each level; with wire in place of wrk (sub-second levels).
describe('bench suite techempower', () => {
  it("prints TFB's table for each of the seven types: rps at each level, the best, latency, each cell's bound", async () => {
    const { text, doc } = await runSuite('techempower', '0.01', ['-t', 'node', '--engine', 'wire']);
    const shape = loadSuites().find((s) => s.definition.name === 'techempower')!.definition.techempower!;
    expect(shape.tests.map((t) => t.type).sort()).toEqual(['cached-queries', 'db', 'fortunes', 'json', 'plaintext', 'queries', 'updates']);
    for (const test of shape.tests) {
      const section = text.slice(text.indexOf(`### ${test.title} (${test.type}: ${test.scenario})`));
      expect(section.length, test.type).toBeLessThan(text.length);
      // one column per level, every cell measured, then the best level and the latency there
      const levels = test.values ?? [...new Set(test.concurrency.map((c) => Math.max(10, Math.round(c * 0.01))))];
      const cells = row(section, 'node')
        .split('|')
        .slice(3, -1)
        .map((c) => c.trim());
      expect(cells, test.type).toHaveLength(levels.length + 2);
      for (const cell of cells.slice(0, levels.length)) expect(cell, test.type).toMatch(/^[\d,]+$/);
      expect(cells[levels.length], test.type).toMatch(/^[\d,]+ at [\d,]+$/);
      expect(cells[levels.length + 1], test.type).toMatch(/^[\d.,]+ \/ [\d.,]+ \/ [\d.,]+$/);
      // and what bounded each of them
      const bounds = section.slice(section.indexOf('What bounded each cell'));
      expect(
        row(bounds, 'node')
          .split('|')
          .slice(2, -1)
          .map((c) => c.trim()),
        test.type,
      ).toEqual(levels.map(() => expect.stringMatching(/^[a-z]+$/)));
    }
    expect(row(text, 'node')).toContain('fastify [mysql]');
    expect(text).toMatch(/^Load shape: TFB's shape scaled by 0\.01: .* engine wire\.$/m);
    // every cell measured on the one stack, the query types at each value of their parameter, plaintext 16 deep
    expect(doc.results.every((r) => r.status === 'ok' && r.target === 'node')).toBe(true);
    expect(doc.results.filter((r) => r.scenario.startsWith('tfb-queries?queries=')).map((r) => r.scenario)).toHaveLength(5);
    expect(text).toMatch(/Requests per second at each level \(connections, 16 requests in flight on each\)/);
  });
});
