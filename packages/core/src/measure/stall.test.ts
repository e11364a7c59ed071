import { createLatencyHistogram, encodeLatencyHistogram, summarizeLatency } from '../load-thread.js';
import { recordMilliseconds } from './latency.js';
import { describe, expect, it } from 'vitest';
import { detectStall, slowRequests } from './stall.js';

// A run of `fast` answers of `fastMs` and `slow` answers of `slowMs`, as an engine would report it.
function run(fast: number, fastMs: number, slow: number, slowMs: number) {
  const histogram = createLatencyHistogram();
  for (let i = 0; i < fast; i++) recordMilliseconds(histogram, fastMs + (i % 10) / 10);
  for (let i = 0; i < slow; i++) recordMilliseconds(histogram, slowMs + i);
  const latency = summarizeLatency(histogram);
  const encoded = encodeLatencyHistogram(histogram);
  histogram.destroy();
  return { latency, histogram: encoded, requests: fast + slow };
}

describe('slowRequests', () => {
  it('counts the requests above a threshold, their range and their summed time', () => {
    const histogram = createLatencyHistogram();
    for (let i = 0; i < 995; i++) recordMilliseconds(histogram, 2);
    for (const ms of [1002, 1003, 1004, 1005, 1006]) recordMilliseconds(histogram, ms);
    const slow = slowRequests(histogram, 200);
    histogram.destroy();
    expect(slow.count).toBe(5);
    expect(slow.fastest).toBeCloseTo(1002, 0);
    expect(slow.slowest).toBeCloseTo(1006, 0);
    expect(slow.totalMs).toBeCloseTo(5020, -1);
  });

  it('finds none when nothing is above the threshold', () => {
    const histogram = createLatencyHistogram();
    recordMilliseconds(histogram, 5);
    expect(slowRequests(histogram, 100).count).toBe(0);
    histogram.destroy();
  });
});

describe('detectStall', () => {
  // mod_fcgid measured here: 995 answers in about 1 s at -c 10, one spawn wait of 1,002 ms, the server at 9%
  const fcgid = { concurrency: 10, durationSeconds: 1.01, ...run(994, 2, 1, 1002), serverCpuPercent: 9, clientCpuPercent: 30 };

  it('names a wait that bounded an idle stack, with its longest request', () => {
    expect(detectStall(fcgid)).toBe(
      'the stack waited rather than worked: 1 request took 1,002 ms (the median 2.4 ms), server CPU 9%, generator CPU 30%',
    );
  });

  it('names the wait without blaming the stack when the server worked', () => {
    expect(detectStall({ ...fcgid, serverCpuPercent: 95 })).toBe(
      'waits inside the measured run: 1 request took 1,002 ms, over 100 times the median (2.4 ms): a worker start-up, a full pool or a queue, not work',
    );
  });

  it('names the wait without blaming the stack when the generator was busy', () => {
    expect(detectStall({ ...fcgid, clientCpuPercent: 80 })).toMatch(/^waits inside the measured run: 1 request took 1,002 ms/);
  });

  it('says nothing of a slow request too short to be more than noise on a working stack', () => {
    expect(detectStall({ ...fcgid, ...run(994, 1, 1, 300), serverCpuPercent: 95 })).toBeUndefined();
  });

  it('says nothing of a steady stack', () => {
    expect(detectStall({ ...fcgid, ...run(1000, 2, 0, 0) })).toBeUndefined();
  });

  it('does not call a sliver of a long run a stall', () => {
    expect(detectStall({ ...fcgid, durationSeconds: 60 })).toMatch(/^waits inside the measured run/);
  });

  it('counts several waits', () => {
    expect(detectStall({ ...fcgid, durationSeconds: 3, ...run(990, 2, 4, 1001) })).toMatch(/4 requests took 1,001-1,004 ms/);
  });

  it('names a stack whose every answer waits', () => {
    expect(detectStall({ ...fcgid, ...run(50, 1000, 0, 0), concurrency: 50 })).toMatch(/the median request took 1,00\d ms/);
  });

  it('needs the server CPU to call it a stall', () => {
    expect(detectStall({ ...fcgid, serverCpuPercent: undefined })).toMatch(/^waits inside the measured run/);
  });
});

describe('detectStall on a busy machine', () => {
  it('says the stack may have waited for a CPU when other work kept the machine busy', () => {
    const fcgid = { concurrency: 10, durationSeconds: 1.01, ...run(994, 2, 1, 1002), serverCpuPercent: 9, clientCpuPercent: 30 };
    expect(detectStall({ ...fcgid, machineBusyPercent: 20 })).toMatch(/^the stack waited rather than worked: 1 request took 1,002 ms/);
    expect(detectStall({ ...fcgid, machineBusyPercent: 85 })).toMatch(
      /^answers waited while the stack used little CPU, but the machine was 85% busy \(all cores\) with other work, so it may have waited for a CPU: 1 request took 1,002 ms/,
    );
  });
});
