import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyExpectation, LoadMeasurement, LoadShape } from '@bench/core';
import { builtinEngines } from '@bench/runner';
import { conformanceCases, startConformanceServer, type ConformanceCase, type ServerCount } from './conformance-server.js';

// One engine against every conformance case (test/support/conformance-server.ts), each run with counts of its own on
// the server. The runs are small (-n 4 on 2 connections): what is asked is how each answer is counted, not how fast.

export interface ConformanceDriver {
  /** The engine's name in the registry. */
  readonly engine: string;
  /** The column it has in docs/engines.md's table (the engine, or a variant of it). */
  readonly label: string;
  readonly options?: Record<string, unknown>;
  readonly shape?: Partial<LoadShape>;
  /** It must count every case right (wire's cores); other engines' verdicts are recorded, not asserted. */
  readonly mustBeRight?: boolean;
  /** When its run is stopped (it then reports what it counted): an engine that never ends a broken case on its own. */
  readonly stopAfterMs?: number;
}

/** What an engine made of a case, against what the server sent: a word for the table, the same from run to run. */
export type Verdict =
  | 'as sent'
  | 'named failure'
  | 'counted answers never sent'
  | 'no failure named'
  | 'failed answers sent whole'
  | 'wrong bodies miscounted'
  | 'run failed';

export function verdict(c: ConformanceCase, m: LoadMeasurement | Error, sent: ServerCount): Verdict {
  if (m instanceof Error) return 'run failed';
  const failures = m.failures.connect + m.failures.receive + m.failures.exceptions + m.failures.timeouts;
  if (m.requests > sent.answers) return 'counted answers never sent';
  if (c.right === 'names a failure') return failures > 0 ? 'named failure' : 'no failure named';
  if (failures > 0) return 'failed answers sent whole';
  if (m.failures.length !== (c.wrongBodies ? m.requests : 0)) return 'wrong bodies miscounted';
  return 'as sent';
}

export function runConformance(driver: ConformanceDriver): void {
  const engine = builtinEngines.find((e) => e.name === driver.engine)!;
  let server: Awaited<ReturnType<typeof startConformanceServer>>;
  const column: Record<string, Verdict> = {};
  beforeAll(async () => {
    server = await startConformanceServer();
  });
  afterAll(async () => {
    await server?.close();
    // BENCH_CONFORMANCE_DIR: each engine's column, for scripts/measure/conformance-table.mjs to draw docs/engines.md's table
    const dir = process.env.BENCH_CONFORMANCE_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${driver.label}.json`), JSON.stringify(column, null, 2));
    }
  });

  describe(`conformance: ${driver.label}`, () => {
    it('is installed here (CI installs every engine)', async () => {
      const availability = await engine.available();
      expect(availability.ok, availability.reason).toBe(true);
    });

    it.each(conformanceCases.map((c, i) => [c.name, c, i] as const))(
      '%s',
      async (_name, c, index) => {
        const run = driver.label.replace(/\W+/g, '-');
        const url = server.url(index, run);
        const body = Buffer.from(c.body);
        const expectBody: BodyExpectation = { kind: 'exact', length: body.length, bytes: () => body };
        const shape = { connections: 2, requests: 4, keepAlive: true, timeoutSeconds: 1, ...driver.shape } as LoadShape;
        const m = await engine
          .run({
            url,
            request: { method: c.method ?? 'GET', path: new URL(url).pathname, headers: {} },
            expect: expectBody,
            shape,
            ...(driver.options ? { options: driver.options } : {}),
            // an engine that never reaches its count on a broken server is stopped (and must stop)
            signal: AbortSignal.timeout(driver.stopAfterMs ?? 5000),
          })
          .catch((error: Error) => error);
        // the server has written what it was writing by the time the count is read
        await new Promise((resolve) => setTimeout(resolve, 20));
        const v = verdict(c, m, server.count(index, run));
        column[c.name] = v;
        if (driver.mustBeRight)
          expect(v, m instanceof Error ? m.message : m.errorSamples.join('; ')).toBe(
            c.right === 'names a failure' ? 'named failure' : 'as sent',
          );
      },
      15_000,
    );
  });
}
