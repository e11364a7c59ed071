import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeLatencyHistogram } from '@bench/core';
import { k6Measurement } from './k6-measurement.js';
import { createK6Tally, readK6Csv, readK6Csvs } from './k6-samples.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'benchtest-k6-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ORIGIN_US = 1_795_000_000_000_000;
const HEADER = 'metric_name,timestamp,metric_value,error_code,status,extra_tags,metadata';

/** One request's rows as k6 writes them (all stamped with its end): status 0 and an error code when it got no answer. */
function request(endSeconds: number, ms: number, status = 200, errorCode = ''): string[] {
  const at = ORIGIN_US + Math.round(endSeconds * 1e6);
  const tags = `${errorCode},${status}`;
  return [
    `http_reqs,${at},1.000000,${tags},,`,
    `http_req_duration,${at},${(ms - 0.5).toFixed(6)},${tags},,`,
    `http_req_blocked,${at},0.500000,${tags},,`,
    `data_received,${at + 100},178.000000,,,,`,
  ];
}

function csv(name: string, rows: string[][]): string {
  const file = path.join(dir, name);
  writeFileSync(file, [HEADER, ...rows.flat()].join('\n') + '\n');
  return file;
}

describe("k6's raw samples, second by second", () => {
  it('merges the instances of a split run by absolute time, each sample in the second it was stamped in', async () => {
    // two instances whose samples interleave in time; the second one's file is read after the first's
    const a = csv('a.csv', [request(0.2, 2), request(1.5, 4), request(2.4, 6, 404)]);
    const b = csv('b.csv', [request(0.7, 3), request(1.2, 5), request(1.9, 0, 0, '1212'), request(2.3, 7)]);
    // read one file after the other, or both at once by time, holding one second's histogram at a time
    const oneByOne = createK6Tally(ORIGIN_US);
    await readK6Csv(a, oneByOne);
    await readK6Csv(b, oneByOne);
    const merged = createK6Tally(ORIGIN_US, { inOrder: true });
    await readK6Csvs([a, b], merged);
    expect(k6Measurement(merged, [10, 20, 30])).toEqual(k6Measurement(oneByOne, [10, 20, 30]));
    const tally = createK6Tally(ORIGIN_US, { inOrder: true });
    await readK6Csvs([a, b], tally);
    const m = k6Measurement(tally, [10, 20, 30]);
    expect(m.requests).toBe(7);
    expect(m.seconds?.map((s) => [s.t, s.requests, s.non2xx, s.failures.connect])).toEqual([
      [0, 2, 0, 0],
      [1, 3, 0, 1],
      [2, 2, 1, 0],
    ]);
    expect(m.seconds?.reduce((sum, s) => sum + s.requests, 0)).toBe(m.requests);
    expect(m.seconds?.[0]?.latency?.max).toBe(3);
    // the refused request counts in its second as in the totals, with no latency among that second's answers
    expect(m.seconds?.[1]?.latency?.max).toBe(5);
    expect(m.seconds?.map((s) => s.clientCpuPercent)).toEqual([10, 20, 30]);
    expect(m.seconds?.at(-1)?.seconds).toBe(0.4);
    expect(decodeLatencyHistogram(m.histogram!).totalCount).toBe(7);
  });

  it('says which file is not k6 CSV output, or is empty', async () => {
    const empty = csv('empty.csv', []);
    writeFileSync(empty, '');
    await expect(readK6Csvs([csv('ok.csv', [request(0.1, 1)]), empty], createK6Tally())).rejects.toThrow(/empty.csv is empty/);
    const other = path.join(dir, 'other.csv');
    writeFileSync(other, 'a,b,c\n1,2,3\n');
    await expect(readK6Csvs([other], createK6Tally())).rejects.toThrow(/other.csv is not k6 CSV output/);
  });

  it('starts at the first sample read when the run start is not known (bench import)', async () => {
    const late = csv('late.csv', [request(5.25, 2), request(6.5, 2)]);
    const tally = createK6Tally();
    await readK6Csv(late, tally);
    const m = k6Measurement(tally);
    // second 0 begins at the first request's start (5.25 s minus its 2 ms)
    expect(m.seconds?.map((s) => s.requests)).toEqual([1, 1]);
  });
});

describe("k6's raw samples, connection by connection", () => {
  /** A request's timing rows, as k6 writes them: a request that opened its connection has connecting (and over TLS handshaking) above 0. */
  function timed(endSeconds: number, t: { blocked: number; connecting: number; tls: number; sending: number; waiting: number }): string[] {
    const at = ORIGIN_US + Math.round(endSeconds * 1e6);
    const row = (metric: string, ms: number) => `${metric},${at},${ms.toFixed(6)},,200,,`;
    return [
      row('http_reqs', 1),
      row('http_req_duration', t.sending + t.waiting + 0.1),
      row('http_req_blocked', t.blocked),
      row('http_req_connecting', t.connecting),
      row('http_req_tls_handshaking', t.tls),
      row('http_req_sending', t.sending),
      row('http_req_waiting', t.waiting),
      row('http_req_receiving', 0.1),
    ];
  }

  it('counts the connections opened, with their connect, handshake and first byte; reused connections count in none', async () => {
    const file = csv('connections.csv', [
      timed(0.1, { blocked: 3, connecting: 1, tls: 2, sending: 0.5, waiting: 4 }),
      timed(0.2, { blocked: 0.01, connecting: 0, tls: 0, sending: 0.02, waiting: 1 }),
      timed(0.3, { blocked: 5, connecting: 2, tls: 3, sending: 1, waiting: 6 }),
    ]);
    const tally = createK6Tally(ORIGIN_US);
    await readK6Csv(file, tally);
    const connects = k6Measurement(tally).connects!;
    expect(connects.count).toBe(2);
    expect([connects.latency.min, connects.latency.max]).toEqual([1, 2]);
    expect([connects.handshake?.latency.min, connects.handshake?.latency.max]).toEqual([2, 3]);
    // from the start of the request that opened it: blocked (connect and handshake within) + sending + waiting
    expect([connects.firstByte?.latency.min, connects.firstByte?.latency.max]).toEqual([7.5, 12]);
    // and second by second: both opened and shook hands in second 0
    expect(k6Measurement(tally).seconds?.[0]).toMatchObject({ newConnections: 2, handshakes: { count: 2, mean: 2.5, max: 3 } });
  });

  it('has no handshake over cleartext, and no connection costs when none was opened in the samples', async () => {
    const plain = createK6Tally(ORIGIN_US);
    await readK6Csv(csv('plain.csv', [timed(0.1, { blocked: 1, connecting: 1, tls: 0, sending: 0.5, waiting: 2 })]), plain);
    expect(k6Measurement(plain).connects?.handshake).toBeUndefined();
    const reused = createK6Tally(ORIGIN_US);
    await readK6Csv(csv('reused.csv', [timed(0.1, { blocked: 0.01, connecting: 0, tls: 0, sending: 0.5, waiting: 2 })]), reused);
    expect(k6Measurement(reused).connects).toBeUndefined();
  });
});
