import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../run/run-cells.js';
import { progressPrinter } from './progress.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** What the printer writes to stderr, away from a terminal, for these events. */
function printed(events: readonly RunEvent[]): string[] {
  vi.stubEnv('CI', 'true');
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk).trimEnd());
    return true;
  });
  const print = progressPrinter();
  for (const event of events) print(event);
  return lines;
}

const plan = {
  type: 'plan',
  plan: { pairs: [{ scenario: { name: 'hello' }, target: { name: 'node' } }], concurrency: [1000], skipped: [] },
  cells: 1,
  engine: 'autocannon',
  options: { repeat: 1, durationSeconds: 1800, warmupSeconds: 3 },
} as unknown as RunEvent;

const start = (phase: 'warmup' | 'measure') =>
  ({
    type: 'cell-start',
    phase,
    index: 1,
    total: 1,
    scenario: 'hello',
    target: 'node',
    concurrency: 1000,
    repeat: 1,
  }) as unknown as RunEvent;

const progress = (elapsedSeconds: number, requests: number) =>
  ({ type: 'cell-progress', progress: { elapsedSeconds, requests } }) as RunEvent;

describe('progress away from a terminal', () => {
  it('says where a long measured run stands once a minute, with the rate of that minute, and not during warm-up', () => {
    const lines = printed([
      plan,
      start('warmup'),
      progress(61, 1),
      start('measure'),
      ...Array.from({ length: 130 }, (_, i) => progress(i + 1, (i + 1) * 50_000 + (i >= 60 ? (i - 59) * 10_000 : 0))),
    ]);
    expect(lines.filter((l) => l.includes('requests'))).toEqual([
      'bench: [1/1] hello node c=1000: 1m00s of 30m00s, 3,000,000 requests, 50,000 rps in the last 1m00s',
      'bench: [1/1] hello node c=1000: 2m00s of 30m00s, 6,600,000 requests, 60,000 rps in the last 1m00s',
    ]);
    expect(lines).toContain('bench: [1/1] hello node c=1000 ...');
  });

  it('writes no progress line in a run shorter than a minute', () => {
    const lines = printed([plan, start('measure'), ...Array.from({ length: 59 }, (_, i) => progress(i + 1, i * 100))]);
    expect(lines.filter((l) => l.includes('requests'))).toEqual([]);
  });
});
