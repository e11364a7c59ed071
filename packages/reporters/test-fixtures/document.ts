import type { CellResult, RunDocument } from '@bench/core';

// A run document for reporter tests: one measured cell with failures and one that failed to start.
export const okResult: CellResult = {
  scenario: 'escape',
  target: 'php-mod',
  concurrency: 10,
  repeat: 1,
  status: 'ok',
  durationSeconds: 3.31,
  requests: 1000,
  rps: 302.11,
  latency: { mean: 33.1, stdev: 12.34, min: 3.2, p50: 28.4, p66: 35, p75: 40.2, p80: 44.6, p90: 55, p95: 61.5, p98: 70.1, p99: 74.4, p999: 110, max: 122.3 },
  failed: 7,
  failedBreakdown: { connect: 1, receive: 2, length: 3, exceptions: 1 },
  non2xx: 4,
  timeouts: 1,
  bytes: { total: 615000, body: 400000 },
  keepAlive: false,
  bound: { kind: 'requests', value: 1000 },
  warmupSeconds: 1,
  url: 'http://127.0.0.1:8080/',
  server: { software: 'Apache/2.4.71 (Debian)', hostname: '127.0.0.1', port: 8080 },
  document: { path: '/', length: 400 },
  statusCodes: { '200': 996, '500': 4 },
  settings: { php: '8.2.36' },
  engine: { name: 'autocannon', version: '9.0.0' },
  resources: { server: { cpuPercent: 181.5, rssBytes: 52428800, processes: 12 }, client: { cpuPercent: 20, rssBytes: 1, processes: 1 } },
  notes: ['a note'],
  startedAt: '2026-11-22T10:00:00.000Z',
  finishedAt: '2026-11-22T10:00:04.000Z',
};

export const failedResult: CellResult = {
  ...okResult,
  target: 'php-cgi',
  status: 'failed',
  error: 'verification failed: status 500 | boom',
  requests: 0,
  rps: 0,
  failed: 0,
  notes: [],
};

export function fixtureDocument(results: CellResult[] = [okResult, failedResult]): RunDocument {
  return {
    schemaVersion: 1,
    tool: { name: 'bench', version: '0.1.0' },
    startedAt: '2026-11-22T10:00:00.000Z',
    finishedAt: '2026-11-22T10:00:10.000Z',
    complete: true,
    machine: { hostname: 'h', platform: 'linux', release: '6.1', arch: 'x64', cpus: 2, cpuModel: 'Test CPU', memoryBytes: 2 ** 34, node: 'v20.20.2', sharedHost: true },
    command: 'bench run escape',
    options: {},
    results,
  };
}
