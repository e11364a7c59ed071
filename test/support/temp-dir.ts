import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A temp dir for one test file, removed when the file's tests are done. */
export function testTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `benchtest-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
