import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchPinnedJars, type PinnedJar } from './maven-jars.js';
import { sourceFor } from './sources.js';

describe('one servlet source for both servlet APIs', () => {
  const servlet = 'import jakarta.servlet.http.HttpServlet;\nimport jakarta.servlet.ServletException;\n// jakarta.annotation stays\nString s = "jakarta.servlet";\n';

  it('renames the jakarta.servlet packages for javax, and nothing else', () => {
    expect(sourceFor('javax', servlet)).toBe('import javax.servlet.http.HttpServlet;\nimport javax.servlet.ServletException;\n// jakarta.annotation stays\nString s = "jakarta.servlet";\n');
  });

  it('leaves the source alone for jakarta', () => {
    expect(sourceFor('jakarta', servlet)).toBe(servlet);
  });
});

describe('jars pinned by sha256', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'benchtest-jars-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const real = Buffer.from('the real jar');
  const jar: PinnedJar = { path: 'org/example/lib/1.0/lib-1.0.jar', sha256: createHash('sha256').update(real).digest('hex') };

  async function serving(body: Buffer): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
    let hits = 0;
    const server = http.createServer((_request, response) => {
      hits++;
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, hits: () => hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('refuses a download whose sha256 differs from the pin, and keeps nothing of it', async () => {
    const remote = await serving(Buffer.from('a tampered jar'));
    try {
      await expect(fetchPinnedJars([jar], path.join(dir, 'tampered'), remote.url)).rejects.toThrow(/pinned .* refused/);
      expect(existsSync(path.join(dir, 'tampered', jar.path))).toBe(false);
    } finally {
      await remote.close();
    }
  });

  it('keeps a verified download and uses it without fetching again', async () => {
    const remote = await serving(real);
    const repository = path.join(dir, 'good');
    try {
      const [file] = await fetchPinnedJars([jar], repository, remote.url);
      expect(readFileSync(file ?? '')).toEqual(real);
      await fetchPinnedJars([jar], repository, remote.url);
      expect(remote.hits()).toBe(1);
    } finally {
      await remote.close();
    }
  });
});
