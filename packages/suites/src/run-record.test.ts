import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { earlierRuns, RECORDED_RUNS, recordRun } from './run-record.js';
import { findSuite } from './suite-registry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-run-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const suite = findSuite('php-sapi-centos5');
const ratios = { 'modes / CGI / Requests per second': [0.01, 0.012, 0.011] };

describe("a suite's runs kept on this machine", () => {
  it('gives the later runs what the earlier ones measured, at the same scale and for the suite as defined now', () => {
    const file = path.join(dir, 'kept.json');
    expect(earlierRuns(suite, 1, file)).toEqual([]);
    expect(recordRun(suite, 1, '2026-11-27T10:00:00.000Z', ratios, file)).toBe(file);
    recordRun(suite, 0.1, '2026-11-27T10:05:00.000Z', { 'modes / CGI / Requests per second': [0.5] }, file);
    expect(earlierRuns(suite, 1, file)).toEqual([{ finishedAt: '2026-11-27T10:00:00.000Z', ratios }]);
    // the suite redefined (another scenario, other targets) is another experiment
    const redefined = { ...suite, definition: { ...suite.definition, description: 'something else' } };
    expect(earlierRuns(redefined, 1, file)).toEqual([]);
    // so is another machine
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { runs: Array<Record<string, unknown>> };
    writeFileSync(file, JSON.stringify({ runs: kept.runs.map((run) => ({ ...run, cpuModel: 'another CPU' })) }));
    expect(earlierRuns(suite, 1, file)).toEqual([]);
  });

  it(`keeps the last ${RECORDED_RUNS} runs, and none from a run that measured no ratio`, () => {
    const file = path.join(dir, 'many.json');
    for (let i = 0; i < RECORDED_RUNS + 2; i++) recordRun(suite, 1, `2026-11-27T10:${String(i).padStart(2, '0')}:00.000Z`, ratios, file);
    const runs = earlierRuns(suite, 1, file);
    expect(runs).toHaveLength(RECORDED_RUNS);
    expect(runs[0]?.finishedAt).toBe('2026-11-27T10:02:00.000Z');
    expect(recordRun(suite, 1, '2026-11-27T11:00:00.000Z', {}, file)).toBeUndefined();
    expect(earlierRuns(suite, 1, file)).toHaveLength(RECORDED_RUNS);
  });

  it('reads an unreadable file as no run at all, and writes over it', () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{ not json');
    expect(earlierRuns(suite, 1, file)).toEqual([]);
    recordRun(suite, 1, '2026-11-27T10:00:00.000Z', ratios, file);
    expect(earlierRuns(suite, 1, file)).toHaveLength(1);
  });
});
