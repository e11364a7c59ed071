import { HISTORY_SCHEMA_VERSION, type HistoryEntry } from '../src/history-entry.js';

/** One history entry of series `series`: run `run` (its day in January 2026 and its commit), repeat `repeat`. */
export function entry(run: number, rps: number, p99: number, repeat = 1, series = 's1'): HistoryEntry {
  return {
    schemaVersion: HISTORY_SCHEMA_VERSION,
    series,
    key: { scenario: 'hello', target: 'node', concurrency: 10, engine: 'autocannon', options: {} },
    machine: { hostname: 'h', cpuModel: 'cpu', cores: 2, memoryBytes: 2 ** 30 },
    git: { commit: `${String(run).padStart(2, '0')}aaaaaaaaa`, branch: 'main' },
    run: { startedAt: new Date(Date.UTC(2026, 0, run)).toISOString(), command: 'bench run', repeat, toolVersion: '0.1.0' },
    status: 'ok',
    metrics: { rps, mean: p99 / 2, p50: p99 / 2, p90: p99, p99, p999: p99, max: p99, requests: 100, failed: 0, non2xx: 0 },
    addedAt: '2026-02-01T00:00:00.000Z',
  };
}

/** Eight runs at ~1000 rps, then eight at ~800 (p99 up from 10 to 13 ms), each run measured twice. */
export const steppedEntries = Array.from({ length: 16 }, (_, i) => {
  const run = i + 1;
  const rps = (i < 8 ? 1000 : 800) * (1 + ((i * 7) % 5) / 200);
  const p99 = (i < 8 ? 10 : 13) * (1 + ((i * 3) % 5) / 200);
  return [entry(run, rps, p99, 1), entry(run, rps * 1.01, p99, 2)];
}).flat();
