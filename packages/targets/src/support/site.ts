import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { routeOf, type Scenario } from '@bench/core';
import { folderOf } from './folder.js';
import { documentRoot } from './probe.js';

/** One scenario of a site: where its files sit, and how its web server reaches it. */
export interface SiteScenario {
  /** The scenario as served from the site (its folder is the copy). */
  readonly scenario: Scenario;
  /** The folder its URLs map to: the scenario's folder, or a static one's file folder. */
  readonly root: string;
  /** Under a prefix of its own (`/s/<name>`): the web server maps `<mount>/` to `root/`. */
  readonly mount?: string;
  /** Served at its own path by a handler file (`/json` -> its index.php): the route, mapped to that one file. */
  readonly route?: string;
}

/** The files one web server serves: its document root and every scenario in it. */
export interface Site {
  readonly documentRoot: string;
  readonly scenarios: readonly SiteScenario[];
}

/**
 * Copies what a web server must read for its scenarios (each folder: scripts and fixtures, and the shared lib/ beside
 * them) into the run's private dir, and says how each is reached. Apache's children run as another account when
 * bench runs as root; they can read the private dir (handed to that account) wherever the checkout is, a 0700 home
 * directory included. One scenario alone is served from its folder as the document root, as the articles' stacks
 * were; several share the site as their root, each mounted or routed (`scenariosForOneStack`).
 */
export function layoutSite(scenarios: readonly Scenario[], dir: string): Site {
  const site = path.join(dir, 'site');
  const staged = scenarios.map((scenario) => {
    const folder = folderOf(scenario);
    const copy = path.join(site, scenario.name);
    cpSync(folder.dir, copy, { recursive: true, filter: (source) => !source.endsWith('.ts') });
    const lib = path.join(folder.dir, '..', 'lib');
    if (existsSync(lib) && !existsSync(path.join(site, 'lib')))
      cpSync(lib, path.join(site, 'lib'), { recursive: true, filter: (source) => !source.endsWith('.ts') });
    return { ...scenario, folder: { ...folder, dir: copy, fixturesDir: path.join(copy, 'fixtures') } };
  });
  const served = staged.map((scenario): SiteScenario => {
    const root = documentRoot(scenario);
    if (scenario.mount !== undefined) return { scenario, root, mount: scenario.mount };
    const route = routeOf(scenario);
    return folderOf(scenario).kind === 'dynamic' && route !== '/' ? { scenario, root, route } : { scenario, root };
  });
  const alone = served.length === 1 && served[0]?.mount === undefined;
  return { documentRoot: alone && served[0] ? served[0].root : site, scenarios: served };
}

/** The file a routed scenario's path maps to: its handler in its folder. */
export const handlerFile = (served: SiteScenario, handler: string): string => path.join(folderOf(served.scenario).dir, handler);
