import type { Scenario, ScenarioFolder } from './scenario.js';
import type { ServiceEndpoints } from './target.js';

/** What a scenario's Node handler module is given when a Node target starts it. */
export interface NodeScenarioContext {
  readonly scenario: Scenario;
  /** The scenario's folder: its fixtures are under folder.fixturesDir. */
  readonly folder: ScenarioFolder;
  /** Backing services, already running and seeded. */
  readonly services: ServiceEndpoints;
  /** With a pool, backend clients come from a generic-pool of `size` connections; without, one connection per process. */
  readonly pool: { readonly enabled: boolean; readonly size: number };
}

/**
 * The default export of scenarios/<name>/node.ts: registers the scenario's route on a Fastify
 * instance (typed loosely here so the contracts package does not depend on Fastify). Clients it
 * opens are closed from an onClose hook.
 */
export type NodeScenarioModule<App = unknown> = (app: App, context: NodeScenarioContext) => void | Promise<void>;
