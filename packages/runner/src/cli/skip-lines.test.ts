import { describe, expect, it } from 'vitest';
import type { Skipped } from '../run/plan.js';
import { skipLines } from './skip-lines.js';

const missing = (target: string, scenario = 'hello'): Skipped => ({
  target,
  scenario,
  reason: `${target} not found (apt-get install x)`,
  kind: 'unavailable',
});
const unserved = (target: string, scenario: string): Skipped => ({ target, scenario, reason: 'it serves files only', kind: 'unsupported' });

describe('the skipped pairs in the progress', () => {
  it('says the targets not installed in one line, however many scenarios they miss', () => {
    const skipped = ['php-fpm', 'php-mod', 'perl-cgi'].flatMap((t) => [missing(t), missing(t, 'db')]);
    expect(skipLines(skipped, false)).toEqual([
      '3 targets skipped: their system packages are missing; `bench doctor` lists them and the apt-get line (--verbose names them)',
    ]);
  });

  it('names the pairs a target cannot serve in one line, cut after five', () => {
    expect(skipLines([unserved('nginx-static', 'hello'), missing('php-fpm')], false)).toEqual([
      '1 target skipped: their system packages are missing; `bench doctor` lists them and the apt-get line (--verbose names them)',
      '1 pair not served: nginx-static/hello (`bench list` says why)',
    ]);
    const many = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((s) => unserved('ssi', s));
    expect(skipLines(many, false)).toEqual(['7 pairs not served: ssi/a, ssi/b, ssi/c, ssi/d, ssi/e and 2 more (`bench list` says why)']);
  });

  it('with --verbose, says each skip and its reason', () => {
    expect(skipLines([missing('php-fpm'), unserved('nginx-static', 'hello')], true)).toEqual([
      'skipping php-fpm for hello: php-fpm not found (apt-get install x)',
      'skipping nginx-static for hello: it serves files only',
    ]);
  });
});
