import type { DatabaseChoice, Reporter } from '@bench/core';
import type { Suite } from '@bench/suites';
import type { RunEvent } from '../run/run-events.js';
import type { OpenHosts } from '../run/run-hosts.js';

/** One `bench suite` run: the suite, its scale, and what to run and report. */
export interface SuiteRunRequest {
  readonly suite: Suite;
  /** 1 runs the article's own load shape; 0.1 a tenth of it. */
  readonly scale: number;
  /** Overrides the suite's repeats. */
  readonly repeat?: number;
  /** Only these of the suite's targets (its other rows stay unmeasured). */
  readonly targets?: readonly string[];
  readonly reporters: readonly Reporter[];
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: RunEvent) => void;
  readonly command?: string;
  /** The load engine in place of the suite's own (techempower: wrk, as TFB; --engine wire). */
  readonly engine?: string;
  /** The database TechEmpower's types read (--db): MariaDB when absent. */
  readonly db?: DatabaseChoice;
  /** The hosts the stacks and services run on (--server-host, --database-host); the project's targets are theirs already. */
  readonly hosts?: OpenHosts;
}
