import type { Scenario } from './scenario.js';

/** The path a stack routes a scenario at: its request path without the query string. */
export function routeOf(scenario: Scenario): string {
  const path = scenario.request.path;
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

/** The scenario as served under a prefix of its own (`/s/hello` serves hello's `/` at `/s/hello/`). */
export function mountScenario(scenario: Scenario, prefix: string): Scenario {
  return { ...scenario, mount: prefix, request: { ...scenario.request, path: prefix + scenario.request.path } };
}

/** The prefix a scenario gets when it must be mounted: `/s/<name>`. */
export const mountPrefix = (scenario: Scenario): string => `/s/${scenario.name}`;

/**
 * Several scenarios as one stack serves them at once (bench verify): each keeps its own path where no other of the
 * list shares it, and where its stack can route that path alone; the others are mounted at `/s/<name>`. A scenario
 * at `/` (a web server's document root) or a static one (served from its folder as a document root) is always
 * mounted in a list of more than one, so every stack can give each its own folder. One scenario alone is served
 * as it is, as `bench run` serves it.
 */
export function scenariosForOneStack(scenarios: readonly Scenario[]): Scenario[] {
  if (scenarios.length <= 1) return [...scenarios];
  const routes = new Map<string, number>();
  for (const scenario of scenarios) routes.set(routeOf(scenario), (routes.get(routeOf(scenario)) ?? 0) + 1);
  return scenarios.map((scenario) => {
    const route = routeOf(scenario);
    const ownPath = route !== '/' && scenario.folder?.kind !== 'static' && routes.get(route) === 1;
    return ownPath ? scenario : mountScenario(scenario, mountPrefix(scenario));
  });
}
