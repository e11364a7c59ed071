import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema, type RunDocument } from '@bench/core';
import { findSuite } from '@bench/suites';
import { fixtureDocument } from '../../test-fixtures/document.js';
import { columnsOf, tfbScore } from './render-techempower.js';
import { tfbResults, tfbScores, TFB_TYPE_NAMES, wrkLatency } from './tfb-results.js';
import { tfbReporter } from './tfb-reporter.js';

// a `bench suite techempower --scale 0.05 -t node,php-fpm` run, kept without its series and histograms
const recorded: RunDocument = runDocumentSchema.parse(
  JSON.parse(readFileSync(new URL('../../test-fixtures/techempower-run.json', import.meta.url), 'utf8')),
);

describe("TFB's results.json", () => {
  it("holds a recorded run under TFB's field names, types and units, read back as JSON", () => {
    const results = JSON.parse(JSON.stringify(tfbResults(recorded))) as Record<string, unknown>;
    expect(Object.keys(results)).toEqual(
      expect.arrayContaining([
        'uuid',
        'name',
        'startTime',
        'completionTime',
        'concurrencyLevels',
        'pipelineConcurrencyLevels',
        'queryIntervals',
        'cachedQueryIntervals',
        'frameworks',
        'duration',
        'rawData',
        'succeeded',
        'failed',
        'verify',
        'testMetadata',
      ]),
    );
    const rawData = results.rawData as Record<string, Record<string, Array<Record<string, unknown>>>>;
    expect(Object.keys(rawData).sort()).toEqual(Object.values(TFB_TYPE_NAMES).sort());
    expect(results.frameworks).toEqual(['node', 'php-fpm']);
    expect(results.queryIntervals).toEqual([1, 5, 10, 15, 20]);
    expect(results.cachedQueryIntervals).toEqual([1, 10, 20, 50, 100]);
    const entry = rawData.query!.node![0]!;
    expect(entry).toMatchObject({ totalRequests: expect.any(Number), startTime: expect.any(Number), endTime: expect.any(Number) });
    for (const field of ['latencyAvg', 'latencyStdev', 'latencyMax']) expect(entry[field]).toMatch(/^\d+\.\d\d(us|ms|s)$/);
    expect((results.succeeded as Record<string, string[]>).update).toEqual(['node', 'php-fpm']);
    expect((results.verify as Record<string, Record<string, string>>).node).toMatchObject({ json: 'pass', update: 'pass' });
  });

  it("recomputes from the file the scores the suite's tables show: the best level, or the highest query count", () => {
    const results = tfbResults(recorded)!;
    const scores = tfbScores(JSON.parse(JSON.stringify(results)) as typeof results);
    const shape = findSuite('techempower').definition.techempower!;
    for (const test of shape.tests)
      for (const framework of ['node', 'php-fpm']) {
        const columns = columnsOf(test, recorded.results);
        const cells = columns.map((c) => ({
          label: c.label,
          cell: recorded.results.find((r) => r.target === framework && r.scenario === c.scenario && r.concurrency === c.concurrency),
        }));
        const shown = tfbScore(test, cells);
        // TFB divides by the levels' duration (here the median of 1.0 s), bench by each level's measured seconds (1.00 to
        // 1.10 s at this scale): they agree within the spread of those seconds
        const ratio = scores[framework]![TFB_TYPE_NAMES[test.type]]! / shown!.cell.rps;
        expect(ratio, `${framework} ${test.type}`).toBeGreaterThan(0.85);
        expect(ratio, `${framework} ${test.type}`).toBeLessThan(1.15);
        if (test.values) expect(shown!.label).toBe(columns.at(-1)!.label);
      }
  });

  it("writes wrk's latency units, and refuses a run that is not a techempower suite", async () => {
    expect([wrkLatency(0.45678), wrkLatency(1.234), wrkLatency(2010)]).toEqual(['456.78us', '1.23ms', '2.01s']);
    const reporter = tfbReporter({ stdout: () => {} } as unknown as Parameters<typeof tfbReporter>[0]);
    await expect(Promise.resolve(reporter).then((r) => r.onRunEnd?.(fixtureDocument()))).rejects.toThrow(
      /-r tfb writes TechEmpower's results.json/,
    );
  });
});
