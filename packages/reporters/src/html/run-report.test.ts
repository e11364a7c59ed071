import { createLatencyHistogram, encodeLatencyHistogram, seededRandom, type CellResult, type SecondPoint } from '@bench/core';
import { describe, expect, it } from 'vitest';
import { fixtureDocument, okResult } from '../../test-fixtures/document.js';
import { renderRunBody, renderRunHtml } from './run-report.js';

/** A measured cell of `seconds` seconds with a warm-up, its series and a histogram of realistic spread. */
function syntheticCell(target: string, seconds: number, random: () => number): CellResult {
  const histogram = createLatencyHistogram();
  for (let i = 0; i < 200_000; i++) histogram.recordValue(Math.round(200 + 5000 * -Math.log(1 - random())));
  const series: SecondPoint[] = Array.from({ length: seconds + 2 }, (_, i) => ({
    t: i - 2,
    phase: i < 2 ? 'warmup' : 'measure',
    seconds: 1,
    requests: 10_000 + Math.round(random() * 500),
    rps: 10_000 + Math.round(random() * 500),
    non2xx: 0,
    failures: { connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 },
    latency: { p50: 1 + random(), p90: 3 + random(), p99: 9 + random(), max: 20 + random() },
    server: { cpuPercent: 90 + random() * 10, rssBytes: 90e6 + random() * 1e6 },
    client: { cpuPercent: 80 + random() * 10 },
  }));
  const cell = { ...okResult, target, series, histogram: encodeLatencyHistogram(histogram) };
  histogram.destroy();
  return cell;
}

describe('the HTML run report', () => {
  it('stays under 1 MB for 20 cells of 60 s', () => {
    const random = seededRandom(1);
    const doc = {
      ...fixtureDocument(Array.from({ length: 20 }, (_, i) => syntheticCell(`target-${i}`, 60, random))),
      schemaVersion: 2 as const,
    };
    const html = renderRunHtml(doc);
    expect(Buffer.byteLength(html)).toBeLessThan(1024 * 1024);
    // every cell's three charts over time, plus the scenario's two
    expect(html.match(/<figure class="chart">/g)).toHaveLength(20 * 3 + 2);
  });

  it("draws a killed run's last cell without an empty server chart: its seconds have no server readings", () => {
    const cut = syntheticCell('cut', 3, seededRandom(2));
    const seconds = (cut.series ?? []).map(({ server: _server, ...second }) => second);
    const html = renderRunHtml({
      ...fixtureDocument([{ ...cut, series: seconds, interrupted: { atSecond: 3 } }]),
      schemaVersion: 2 as const,
    });
    expect(html).toContain('cut c=10: generator CPU (no server readings: the run was killed before this cell handed them over)');
    expect(html).not.toContain('cut c=10: server CPU and memory');
    // the dashboard's cell in progress is no killed one: its server readings come as it ends
    const live = renderRunBody(
      { ...fixtureDocument([{ ...cut, series: seconds, interrupted: { atSecond: 3 } }]), schemaVersion: 2 as const },
      '',
      true,
    );
    expect(live).toContain('cut c=10: generator CPU (no server readings: they come as the cell ends)');
    expect(live).not.toContain('killed');
  });

  it('says what a schema-1 file lacks', () => {
    const html = renderRunHtml(fixtureDocument());
    expect(html).toContain('results schema 1: it has no per-second series and no latency histograms');
    expect(html).toContain('failed: verification failed: status 500 | boom');
  });

  it('inlines everything it needs: no script or stylesheet from elsewhere', () => {
    const html = renderRunHtml(fixtureDocument());
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+stylesheet/);
    expect(html).toContain('uPlot');
  });

  it('draws new connections per second beside rps, with the percentiles of each phase, where the engine timed them', () => {
    const cell = syntheticCell('tls', 3, seededRandom(3));
    const latency = (p50: number) => ({ ...okResult.latency, p50, p90: p50 * 2, p99: p50 * 3, max: p50 * 4, mean: p50 });
    const html = renderRunHtml({
      ...fixtureDocument([
        {
          ...cell,
          series: (cell.series ?? []).map((p) => ({ ...p, newConnections: 10 })),
          connects: {
            count: 50,
            latency: latency(0.5),
            handshake: latency(2),
            firstByte: latency(4),
            perSecond: 10,
            requestsPerConnection: 1000,
          },
        },
      ]),
      schemaVersion: 2 as const,
    });
    expect(html).toContain('tls c=10: new connections per second (50 in all, 1,000 answers each)');
    expect(html).toMatch(/<td>TLS handshake<\/td><td>2<\/td><td>4<\/td><td>6<\/td><td>8<\/td>/);
    // over TLS, each second's handshakes beside the count
    const tls = renderRunHtml({
      ...fixtureDocument([
        {
          ...cell,
          series: (cell.series ?? []).map((p) => ({ ...p, newConnections: 10, handshake: { mean: 2.5, max: 7 } })),
          connects: { count: 50, latency: latency(0.5), handshake: latency(2), perSecond: 10, requestsPerConnection: 1000 },
        },
      ]),
      schemaVersion: 2 as const,
    });
    expect(tls).toContain('tls c=10: new connections and their TLS handshakes per second');
    expect(tls).toContain('"label":"handshake max ms","values":[7,7,7,7,7]');
    // a cleartext cell whose connections all opened at its start draws none
    const kept = renderRunHtml({
      ...fixtureDocument([
        {
          ...cell,
          series: (cell.series ?? []).map((p) => ({ ...p, newConnections: p.t === 0 ? 10 : 0 })),
          connects: { count: 10, latency: latency(0.5), perSecond: 2, requestsPerConnection: 5000 },
        },
      ]),
      schemaVersion: 2 as const,
    });
    expect(kept).not.toContain('new connections per second');
    // a cell whose engine timed no connection draws no such chart
    expect(renderRunHtml({ ...fixtureDocument([cell]), schemaVersion: 2 as const })).not.toContain('new connections per second');
  });
});
