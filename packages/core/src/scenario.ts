import { errors } from './errors.js';
import type { TfbTestType } from './tfb/test-types.js';
import type { Workload } from './workload/workload.js';

export const serviceNames = ['redis', 'mysql', 'memcached', 'postgres'] as const;
export type ServiceName = (typeof serviceNames)[number];

/** What every client sends for a scenario. */
export interface ScenarioRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

/** What the body of every answer must be. */
export type BodyExpectation =
  /** These exact bytes (the reference scenarios: every stack answers byte for byte the same). */
  | { readonly kind: 'exact'; readonly length: number; bytes(): Buffer }
  /** Text matching a regular expression (an API answer with ids or timestamps). */
  | { readonly kind: 'matches'; readonly pattern: string }
  /** A JSON document containing this subset. */
  | { readonly kind: 'json'; readonly subset: unknown }
  /** Anything (only the status is checked). */
  | { readonly kind: 'any' };

/** What every answer must be. */
export interface AnswerExpectation {
  /** The exact status; undefined means any 2xx. */
  readonly status?: number;
  /**
   * The media type the Content-Type header must start with, compared without case ("text/html" accepts
   * "text/html; charset=utf-8"): the same meaning in scenario.json and in a config's request spec.
   */
  readonly contentType?: string;
  /** Other response headers, name -> regular expression. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: BodyExpectation;
}

/** Where a folder scenario's handlers (node.ts, index.php, index.pl) and fixtures live. */
export interface ScenarioFolder {
  readonly dir: string;
  readonly fixturesDir: string;
  readonly kind: 'static' | 'dynamic';
  /** For static scenarios: the file, relative to dir, the request path maps to. */
  readonly staticFile?: string;
}

/** A scenario: the request clients send, what every answer must be, and (for the reference stacks) its handlers. */
export interface Scenario {
  readonly name: string;
  readonly title: string;
  readonly from: readonly string[];
  readonly description: string;
  readonly services: readonly ServiceName[];
  readonly request: ScenarioRequest;
  readonly expect: AnswerExpectation;
  /** Absent for a request scenario: a route of an app's own server, with no handler of bench's. */
  readonly folder?: ScenarioFolder;
  /** A flow, a mix, or requests with generated values: what each connection sends, step by step (`request` is its first). */
  readonly workload?: Workload;
  /**
   * The prefix a stack serving several scenarios serves this one under (`/s/<name>`), when it needs one of its own (see
   * scenario-mount.ts); `request.path` already starts with it. Absent: the scenario is served at its own path.
   */
  readonly mount?: string;
  /** The TechEmpower test type it is (tfb-json ...): verification applies TFB's rules to it. */
  readonly tfb?: TfbTestType;
}

/** The SQL database a scenario reads (MariaDB's service is named mysql), or undefined when it reads none. */
export function databaseOf(scenario: Pick<Scenario, 'services'>): 'mysql' | 'postgres' | undefined {
  return scenario.services.find((name): name is 'mysql' | 'postgres' => name === 'mysql' || name === 'postgres');
}

/** The SQL databases a run can give TechEmpower's types (--db): MariaDB, as TFB's MySQL, or PostgreSQL. */
export const databaseChoices = ['mariadb', 'postgres'] as const;
export type DatabaseChoice = (typeof databaseChoices)[number];

/** --db's value, checked. */
export function parseDatabaseChoice(raw: string): DatabaseChoice {
  const choice = databaseChoices.find((c) => c === raw.toLowerCase());
  if (!choice) throw errors.usage(`--db "${raw}" is not one of ${databaseChoices.join(', ')}`);
  return choice;
}

/**
 * The scenario as it runs on the chosen database: a TechEmpower type that reads MariaDB reads PostgreSQL instead (its
 * handlers take whichever database they are given); every other scenario as it is (the articles measured MySQL).
 */
export function onDatabase(scenario: Scenario, database: DatabaseChoice): Scenario {
  if (database === 'mariadb' || scenario.tfb === undefined || !scenario.services.includes('mysql')) return scenario;
  return {
    ...scenario,
    title: `${scenario.title}, on PostgreSQL`,
    services: scenario.services.map((name) => (name === 'mysql' ? 'postgres' : name)),
  };
}

/** The length every answer must have, when the expectation fixes it. */
export function expectedLength(scenario: Scenario): number | undefined {
  return scenario.expect.body.kind === 'exact' ? scenario.expect.body.length : undefined;
}
