import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ResponseCounter } from './http-responses.js';
import type { Scenario, ServiceName } from '@bench/core';
import { fetchPinnedJars, JEDIS_JARS, POSTGRES_JARS, type PinnedJar } from './maven-jars.js';
import { javaSourcesFor, sourceFor } from './sources.js';

describe('one servlet source for both servlet APIs', () => {
  const servlet =
    'import jakarta.servlet.http.HttpServlet;\nimport jakarta.servlet.ServletException;\n// jakarta.annotation stays\nString s = "jakarta.servlet";\n';

  it('renames the jakarta.servlet packages for javax, and nothing else', () => {
    expect(sourceFor('javax', servlet)).toBe(
      'import javax.servlet.http.HttpServlet;\nimport javax.servlet.ServletException;\n// jakarta.annotation stays\nString s = "jakarta.servlet";\n',
    );
  });

  it('leaves the source alone for jakarta', () => {
    expect(sourceFor('jakarta', servlet)).toBe(servlet);
  });
});

describe('the sources a start compiles', () => {
  const tfbDb = (services: ServiceName[]) =>
    ({
      name: 'tfb-db',
      services,
      tfb: 'db',
      folder: { dir: '/s/tfb-db', fixturesDir: '/s/tfb-db', kind: 'dynamic' },
    }) as unknown as Scenario;
  const backends = (scenario: Scenario) =>
    javaSourcesFor([scenario], 'Main.java')
      .map((source) => path.basename(source.file))
      .filter((file) => /Backend\.java$|TfbWorld/.test(file));

  it("compiles TfbWorld with the run's database backend, MariaDB's or PostgreSQL's", () => {
    expect(backends(tfbDb(['mysql']))).toEqual(['MysqlBackend.java', 'TfbWorld.java']);
    expect(backends(tfbDb(['postgres']))).toEqual(['PostgresBackend.java', 'TfbWorld.java']);
  });

  it("pins PostgreSQL's jars with the slf4j-api Jedis pins, not a second copy", () => {
    const slf4j = (jars: readonly PinnedJar[]) => jars.filter((jar) => jar.path.includes('/slf4j-api/'));
    expect(slf4j(POSTGRES_JARS)).toEqual(slf4j(JEDIS_JARS));
    expect(slf4j(POSTGRES_JARS)).toHaveLength(1);
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

describe('counting answers on a kept-alive connection', () => {
  const lengthFramed = 'HTTP/1.1 200 \r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nHello World';
  const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHello\r\n6\r\n World\r\n0\r\n\r\n';

  it('counts Content-Length and chunked answers, however the bytes are split', () => {
    const stream = Buffer.from(lengthFramed + chunked + lengthFramed, 'latin1');
    for (const size of [1, 7, stream.length]) {
      const counter = new ResponseCounter();
      for (let at = 0; at < stream.length; at += size) counter.push(stream.subarray(at, at + size));
      expect({ size, answered: counter.answered, errors: counter.errors }).toEqual({ size, answered: 3, errors: 0 });
    }
  });

  it('counts an error status as an error', () => {
    const counter = new ResponseCounter();
    counter.push(Buffer.from('HTTP/1.1 500 \r\nContent-Length: 0\r\n\r\n', 'latin1'));
    expect({ answered: counter.answered, errors: counter.errors }).toEqual({ answered: 1, errors: 1 });
  });
});
