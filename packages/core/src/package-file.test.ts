import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packageFile } from './package-file.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'bench-package-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('packageFile', () => {
  it('finds the package root from a module in dist/ and from one in dist/bundle/ alike', () => {
    const pkg = path.join(root, 'pkg');
    mkdirSync(path.join(pkg, 'dist', 'bundle'), { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), '{}');
    for (const module of ['dist/wire/wire-engine.js', 'dist/bundle/index.js']) {
      expect(packageFile(pathToFileURL(path.join(pkg, module)).href, 'dist', 'wire', 'wire-worker.js')).toBe(
        path.join(pkg, 'dist', 'wire', 'wire-worker.js'),
      );
    }
    expect(packageFile(pathToFileURL(path.join(pkg, 'dist', 'x.js')).href)).toBe(pkg);
  });

  it('says so when no folder above the module holds a package.json', () => {
    expect(() => packageFile(pathToFileURL(path.join(root, 'loose', 'x.js')).href)).toThrow(/no package\.json in any folder above/);
  });
});
