import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findFreePort } from '@bench/core';
import { repoRoot } from './cli.js';
import { testTempDir } from './temp-dir.js';

/**
 * The OpenTelemetry Collector of scripts/setup/otelcol/builder.yaml (OTLP receiver, file exporter, bearer-token auth), as
 * scripts/setup/build-otelcol.sh built and cached it (.ci/run builds it before the tests; here it is found in its cache at
 * once, or built if missing): a missing collector fails the test that needs it, it is never skipped.
 */
export const otelcolPath = (): string =>
  process.env.BENCH_OTELCOL ??
  execFileSync('bash', [path.join(repoRoot, 'scripts', 'setup', 'build-otelcol.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();

export interface Collector {
  /** Its OTLP/HTTP address, e.g. http://127.0.0.1:4318 */
  readonly base: string;
  /** Every metric data point the file exporter has written so far: name, attributes, value, time (ms). */
  points(): CollectedPoint[];
  stop(): void;
}

export interface CollectedPoint {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly value: number;
  readonly timeMs: number;
}

interface OtlpJsonLine {
  resourceMetrics?: {
    scopeMetrics?: {
      metrics?: {
        name: string;
        gauge?: {
          dataPoints?: { attributes?: { key: string; value: { stringValue?: string } }[]; asDouble?: number; timeUnixNano?: string }[];
        };
      }[];
    }[];
  }[];
}

/** A Collector on 127.0.0.1 whose OTLP/HTTP receiver takes only `Authorization: Bearer token`, writing what it takes to a file. */
export async function startCollector(token: string): Promise<Collector> {
  const binary = otelcolPath();
  const dir = testTempDir('otelcol');
  const port = await findFreePort();
  const file = path.join(dir, 'metrics.jsonl');
  const config = path.join(dir, 'otelcol.yaml');
  writeFileSync(
    config,
    [
      'extensions:',
      '  bearertokenauth:',
      `    token: "${token}"`,
      'receivers:',
      '  otlp:',
      '    protocols:',
      '      http:',
      `        endpoint: 127.0.0.1:${port}`,
      '        auth:',
      '          authenticator: bearertokenauth',
      'exporters:',
      '  file:',
      `    path: ${file}`,
      '    flush_interval: 100ms',
      'service:',
      '  extensions: [bearertokenauth]',
      '  telemetry:',
      '    metrics:',
      '      level: none',
      '    logs:',
      '      level: warn',
      '  pipelines:',
      '    metrics:',
      '      receivers: [otlp]',
      '      exporters: [file]',
      '',
    ].join('\n'),
  );
  let output = '';
  const child: ChildProcess = spawn(binary, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  // ready once its receiver answers at all (401: no token)
  while (
    !(await fetch(`${base}/v1/metrics`, { method: 'POST' }).then(
      () => true,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the collector did not start in 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    points: () => {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter(Boolean)
        .flatMap((line) =>
          ((JSON.parse(line) as OtlpJsonLine).resourceMetrics ?? []).flatMap((rm) =>
            (rm.scopeMetrics ?? []).flatMap((sm) =>
              (sm.metrics ?? []).flatMap((m) =>
                (m.gauge?.dataPoints ?? []).map((p) => ({
                  name: m.name,
                  attributes: Object.fromEntries((p.attributes ?? []).map((a) => [a.key, a.value.stringValue ?? ''])),
                  value: p.asDouble ?? NaN,
                  timeMs: Number(BigInt(p.timeUnixNano ?? '0') / 1_000_000n),
                })),
              ),
            ),
          ),
        );
    },
    stop: () => child.kill('SIGKILL'),
  };
}
