import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** A temp dir removed when the test that made it ends (or, made at file level, when the file's tests are done). */
export function testTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `benchtest-${prefix}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    afterAll(remove); // not inside a test: at file level
  }
  return dir;
}
