import type { SecondPoint } from '../result.js';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../random/seeded-random.js';
import { drift, looksLikeLeak, soakNotes, soakVerdict } from './soak.js';

const MB = 1024 * 1024;

// A measured run of `seconds` points: rps, p99 and the server's RSS each second as the functions give them.
function series(seconds: number, rps: (t: number) => number, p99: (t: number) => number, rssMB: (t: number) => number): SecondPoint[] {
  return Array.from({ length: seconds }, (_, t) => ({
    t,
    phase: 'measure' as const,
    seconds: 1,
    requests: Math.round(rps(t)),
    rps: rps(t),
    non2xx: 0,
    failures: { connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 },
    latency: { p50: p99(t) / 3, p90: p99(t) / 2, p99: p99(t), max: p99(t) * 2 },
    server: { cpuPercent: 90, rssBytes: Math.round(rssMB(t) * MB) },
  }));
}

const noise = (random: () => number, spread: number) => (random() - 0.5) * 2 * spread;

describe('drift', () => {
  it('compares a tenth of the run at each end, at least five seconds, and needs ten seconds', () => {
    expect(drift([1, 2, 3, 4, 5, 6, 7, 8, 9])).toBeUndefined();
    const d = drift(Array.from({ length: 100 }, (_, i) => (i < 50 ? 1000 : 800)));
    expect(d).toMatchObject({ windowSeconds: 10, first: 1000, last: 800, driftPercent: -20 });
    expect(d!.p).toBeLessThan(0.001);
  });
});

describe('soak verdicts', () => {
  it('never call a short run a leak: a pool growing over a few seconds climbs as steadily', () => {
    const s = series(
      3,
      () => 7000,
      () => 9,
      (t) => 200 + 100 * t,
    );
    const soak = soakVerdict(s, { afterSeconds: 1, rssBytes: 280 * MB })!;
    expect(soak.rss?.slopeMBPerMin).toBeGreaterThan(1000);
    expect(looksLikeLeak(soak)).toBe(false);
    expect(soakNotes(soak).filter((note) => note.startsWith('server RSS'))).toEqual([]);
  });

  it('flag a server whose memory climbs steadily in a 60 s run, in every one of many seeded runs', () => {
    const random = seededRandom(7);
    for (let run = 0; run < 50; run++) {
      // 50 MB of a Node server, growing 10 MB a minute under GC noise of ±1.5 MB
      const s = series(
        60,
        () => 9000 + noise(random, 500),
        () => 4 + noise(random, 1),
        (t) => 50 + (10 * t) / 60 + noise(random, 1.5),
      );
      const soak = soakVerdict(s, { afterSeconds: 3, rssBytes: 60 * MB })!;
      expect(looksLikeLeak(soak)).toBe(true);
      const notes = soakNotes(soak).filter((note) => note.startsWith('server RSS'));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(/^server RSS grew \d+\.\d MB\/min, R² 0\.\d\d: possible leak \(3 s after the load stopped it still held/);
    }
  });

  it('never flag a steady server, in every one of many seeded runs: flat with noise, a GC sawtooth, a start-up step', () => {
    const random = seededRandom(11);
    const shapes = [
      () => 60 + noise(random, 2),
      (t: number) => 60 + ((t % 15) / 15) * 8, // heap filling to a collection every 15 s
      (t: number) => (t < 5 ? 55 : 62) + noise(random, 0.5), // one step up early, then flat
    ];
    for (let run = 0; run < 50; run++) {
      for (const rss of shapes) {
        const soak = soakVerdict(
          series(
            60,
            () => 9000 + noise(random, 900),
            () => 4 + noise(random, 1),
            rss,
          ),
        )!;
        expect(soakNotes(soak)).toEqual([]);
      }
    }
  });

  it('flag throughput that sinks and a p99 that climbs, and say by how much with the rank test', () => {
    const random = seededRandom(3);
    const s = series(
      60,
      (t) => (t < 30 ? 9000 : 6000) + noise(random, 300),
      (t) => (t < 30 ? 4 : 9) + noise(random, 0.5),
      () => 60,
    );
    const soak = soakVerdict(s)!;
    expect(soak.rps?.driftPercent).toBeLessThan(-30);
    expect(soak.p99?.driftPercent).toBeGreaterThan(100);
    const notes = soakNotes(soak);
    expect(notes[0]).toMatch(
      /^throughput drifted -3\d\.\d% from the first 6 s to the last \(median \d+(\.\d+)? → \d+(\.\d+)? rps, rank test p = 0\.0\d+\)/,
    );
    expect(notes[1]).toMatch(/^p99 drifted \+\d+(\.\d)?% from the first 6 s/);
  });

  it('read only the measured seconds: warm-up and a last partial second are left out', () => {
    const warm = series(
      5,
      () => 100,
      () => 50,
      (t) => 10 + t * 10,
    ).map((p) => ({ ...p, t: p.t - 5, phase: 'warmup' as const }));
    const measured = series(
      10,
      () => 9000,
      () => 4,
      () => 60,
    );
    const partial = { ...measured[9]!, t: 10, seconds: 0.3, rps: 10 };
    const soak = soakVerdict([...warm, ...measured, partial])!;
    expect(soak.seconds).toBe(10);
    expect(soak.rss).toMatchObject({ slopeMBPerMin: 0, startBytes: 60 * MB, endBytes: 60 * MB });
    expect(soak.rps).toMatchObject({ driftPercent: 0 });
  });

  it('say memory came back when the cool-down reading is near the start', () => {
    const s = series(
      60,
      () => 9000,
      () => 4,
      (t) => 50 + t / 6,
    );
    expect(soakVerdict(s, { afterSeconds: 3, rssBytes: 50.5 * MB })?.coolDown).toMatchObject({ returned: true });
    expect(soakVerdict(s, { afterSeconds: 3, rssBytes: 59 * MB })?.coolDown).toMatchObject({ returned: false });
    expect(soakNotes(soakVerdict(s, { afterSeconds: 3, rssBytes: 50.5 * MB })!)[0]).toMatch(/came back 3 s after the load stopped/);
  });
});
