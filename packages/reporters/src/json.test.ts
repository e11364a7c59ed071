import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { jsonReporter } from './json.js';
import { fixtureDocument, okResult } from '../test-fixtures/document.js';

describe('json reporter', () => {
  it('rewrites the file atomically after every result, and the file is valid at each step', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'benchtest-json-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const outFile = path.join(dir, 'r.json');
    const reporter = await jsonReporter({ outFile, options: {}, stdout: () => {} });
    const doc = fixtureDocument([]);
    await reporter.onRunStart?.(doc);
    expect(JSON.parse(readFileSync(outFile, 'utf8')).results).toEqual([]);
    doc.results.push(okResult);
    await reporter.onResult?.(okResult, doc);
    const written = runDocumentSchema.parse(JSON.parse(readFileSync(outFile, 'utf8')));
    expect(written.results[0]?.target).toBe('php-mod');
    await reporter.onRunEnd?.(doc);
    expect(readdirSync(dir)).toEqual(['r.json']);
    expect(existsSync(`${outFile}.tmp-${process.pid}`)).toBe(false);
  });

  it('prints the document to stdout at the end when no file is given', async () => {
    let out = '';
    const reporter = await jsonReporter({ options: {}, stdout: (t) => (out += t) });
    await reporter.onRunEnd?.(fixtureDocument());
    expect(runDocumentSchema.parse(JSON.parse(out)).results).toHaveLength(2);
  });
});
