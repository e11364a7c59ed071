import { describe, expect, it } from 'vitest';
import { renderAbText } from './ab.js';
import { fixtureDocument, failedResult, okResult } from '../test-fixtures/document.js';

describe('ab reporter', () => {
  it('matches the ApacheBench 2.3 layout line for line (failures, non-2xx, no keep-alive)', () => {
    expect(renderAbText(okResult, fixtureDocument())).toBe(
      [
        'bench 0.1.0: escape on php-mod, ab-style report, measured with autocannon 9.0.0',
        '',
        'Server Software:        Apache/2.4.71 (Debian)',
        'Server Hostname:        127.0.0.1',
        'Server Port:            8080',
        '',
        'Document Path:          /',
        'Document Length:        400 bytes',
        '',
        'Concurrency Level:      10',
        'Time taken for tests:   3.310 seconds',
        'Complete requests:      1000',
        'Failed requests:        7',
        '   (Connect: 1, Receive: 2, Length: 3, Exceptions: 1)',
        'Non-2xx responses:      4',
        'Total transferred:      615000 bytes',
        'HTML transferred:       400000 bytes',
        'Requests per second:    302.11 [#/sec] (mean)',
        'Time per request:       33.100 [ms] (mean)',
        'Time per request:       3.310 [ms] (mean, across all concurrent requests)',
        'Transfer rate:          181.45 [Kbytes/sec] received',
        '',
        'Connection Times (ms)',
        '              min  mean[+/-sd] median   max',
        'Connect:      n/a  n/a   n/a    n/a     n/a',
        'Processing:   n/a  n/a   n/a    n/a     n/a',
        'Waiting:      n/a  n/a   n/a    n/a     n/a',
        'Total:          3   33  12.3     28     122',
        '',
        'Percentage of the requests served within a certain time (ms)',
        '  50%     28',
        '  66%     35',
        '  75%     40',
        '  80%     45',
        '  90%     55',
        '  95%     62',
        '  98%     70',
        '  99%     74',
        ' 100%    122 (longest request)',
        '',
        'bench note: a note',
        '',
      ].join('\n'),
    );
  });

  it('prints Keep-Alive requests only with keep-alive, and no failure detail when nothing failed', () => {
    const text = renderAbText(
      { ...okResult, keepAlive: true, failed: 0, non2xx: 0, failedBreakdown: { connect: 0, receive: 0, length: 0, exceptions: 0 } },
      fixtureDocument(),
    );
    const lines = text.split('\n');
    expect(lines).toContain('Keep-Alive requests:    1000');
    expect(lines).toContain('Failed requests:        0');
    expect(text).not.toContain('(Connect:');
    expect(text).not.toContain('Non-2xx');
    // every labelled value starts at column 24, as in ab
    for (const line of lines.filter((l) => /^[A-Z][A-Za-z -]+:\s/.test(l) && !/^(Connect|Processing|Waiting|Total):/.test(l))) {
      expect(line.slice(0, 24)).toMatch(/^[A-Z][A-Za-z -]+: +$/);
    }
  });

  it('says a failed cell failed instead of inventing numbers', () => {
    const text = renderAbText(failedResult, fixtureDocument());
    expect(text).toContain('Failed: verification failed');
    expect(text).not.toContain('Requests per second');
  });
});

describe('ab reporter with an engine that measures connection times', () => {
  it('prints Connect, Processing and Waiting as ab does', () => {
    const t = (min: number, mean: number, sd: number, median: number, max: number) => ({ min, mean, sd, median, max });
    const text = renderAbText(
      {
        ...okResult,
        connectionTimes: {
          connect: t(0, 1, 0.4, 1, 3),
          processing: t(2, 30, 11.8, 27, 120),
          waiting: t(2, 29, 11.7, 26, 119),
          total: t(3, 33, 12.3, 28, 122),
        },
      },
      fixtureDocument(),
    );
    const lines = text.split('\n');
    expect(lines).toContain('Connect:        0    1   0.4      1       3');
    expect(lines).toContain('Processing:     2   30  11.8     27     120');
    expect(lines).toContain('Waiting:        2   29  11.7     26     119');
    expect(lines).toContain('Total:          3   33  12.3     28     122');
  });
});

describe("ab's reliability warnings", () => {
  const t = (min: number, mean: number, sd: number, median: number, max: number) => ({ min, mean, sd, median, max });
  const withTimes = (processing: ReturnType<typeof t>, total: ReturnType<typeof t>) =>
    renderAbText(
      { ...okResult, connectionTimes: { connect: t(0, 0, 0.1, 0, 1), processing, waiting: processing, total } },
      fixtureDocument(),
    ).split('\n');

  it('warns under the table when mean and median are more than one sd apart, and errs beyond two', () => {
    const lines = withTimes(t(1, 12, 4.0, 7, 90), t(1, 12, 4.0, 2, 90));
    const table = lines.indexOf('Total:          1   12   4.0      2      90');
    expect(lines.slice(table + 1, table + 7)).toEqual([
      'WARNING: The median and mean for the processing time are not within a normal deviation',
      '        These results are probably not that reliable.',
      'WARNING: The median and mean for the waiting time are not within a normal deviation',
      '        These results are probably not that reliable.',
      'ERROR: The median and mean for the total time are more than twice the standard',
      '       deviation apart. These results are NOT reliable.',
    ]);
    expect(lines[table + 7]).toBe('');
  });

  it('says nothing when mean and median are within one sd, and checks only the rows it measured', () => {
    expect(withTimes(t(1, 12, 4.0, 10, 90), t(1, 12, 4.0, 11, 90)).some((l) => /WARNING|ERROR/.test(l))).toBe(false);
    // okResult: Total 33 mean, 28 median, 12.3 sd; the n/a rows are not judged
    expect(renderAbText(okResult, fixtureDocument())).not.toMatch(/WARNING|ERROR/);
    const skewed = renderAbText({ ...okResult, latency: { ...okResult.latency, stdev: 2 } }, fixtureDocument());
    expect(skewed).toContain('ERROR: The median and mean for the total time are more than twice the standard');
    expect(skewed).not.toContain('connection time');
  });
});
