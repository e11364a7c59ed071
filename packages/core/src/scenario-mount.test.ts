import { describe, expect, it } from 'vitest';
import type { Scenario } from './scenario.js';
import { routeOf, scenariosForOneStack } from './scenario-mount.js';

const scenario = (name: string, path: string, kind: 'static' | 'dynamic' = 'dynamic'): Scenario => ({
  name,
  title: name,
  from: [],
  description: '',
  services: [],
  request: { method: 'GET', path, headers: {} },
  expect: { headers: {}, body: { kind: 'any' } },
  folder: { dir: `/s/${name}`, fixturesDir: `/s/${name}/fixtures`, kind },
});

const paths = (list: readonly Scenario[]) => list.map((s) => [s.request.path, s.mount]);

describe('scenarios one stack serves at once', () => {
  it('leaves one scenario alone as bench run serves it', () => {
    expect(paths(scenariosForOneStack([scenario('hello', '/')]))).toEqual([['/', undefined]]);
  });

  it('keeps distinct paths of their own, query strings and all', () => {
    const served = scenariosForOneStack([scenario('tfb-json', '/json'), scenario('tfb-queries', '/queries?queries=20')]);
    expect(paths(served)).toEqual([
      ['/json', undefined],
      ['/queries?queries=20', undefined],
    ]);
    expect(routeOf(served[1]!)).toBe('/queries');
  });

  it('mounts the ones at /, the static ones and the ones that share a path', () => {
    const served = scenariosForOneStack([
      scenario('hello', '/'),
      scenario('file', '/page.html', 'static'),
      scenario('a', '/x?n=1'),
      scenario('b', '/x?n=2'),
      scenario('tfb-json', '/json'),
    ]);
    expect(paths(served)).toEqual([
      ['/s/hello/', '/s/hello'],
      ['/s/file/page.html', '/s/file'],
      ['/s/a/x?n=1', '/s/a'],
      ['/s/b/x?n=2', '/s/b'],
      ['/json', undefined],
    ]);
  });
});
