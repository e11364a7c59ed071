import { describe, expect, it } from 'vitest';
import { reporterSpecCollector } from './reporter-spec.js';

describe('--reporter and --out in command-line order', () => {
  it('gives each --out to the reporter just before it', () => {
    const c = reporterSpecCollector();
    c.addReporter('json');
    c.addOut('r.json');
    c.addReporter('ab');
    expect(c.specs()).toEqual([{ name: 'json', out: 'r.json' }, { name: 'ab' }]);
  });

  it('sends a lone --out to the default markdown reporter, or to the first reporter named after it', () => {
    const lone = reporterSpecCollector();
    lone.addOut('report.md');
    expect(lone.specs()).toEqual([{ name: 'markdown', out: 'report.md' }]);
    const first = reporterSpecCollector();
    first.addOut('r.json');
    first.addReporter('json');
    expect(first.specs()).toEqual([{ name: 'json', out: 'r.json' }]);
  });
});
