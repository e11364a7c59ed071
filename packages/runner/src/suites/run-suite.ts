import type { RunDocument } from '@bench/core';
import { runSuite as runSuiteOn, type SuiteRunRequest as SuitesRequest } from '@bench/suites';
import type { Project } from '../project/project.js';
import type { RunEvent } from '../run/run-events.js';
import type { OpenHosts } from '../run/run-hosts.js';
import { runnerSuiteHost } from './runner-suite-host.js';

/** One `bench suite` run: the suites package's request, its events the runner's, on the hosts given. */
export interface SuiteRunRequest extends Omit<SuitesRequest, 'onEvent'> {
  readonly onEvent?: (event: RunEvent) => void;
  /** The hosts the stacks and services run on (--server-host, --database-host); the project's targets are theirs already. */
  readonly hosts?: OpenHosts;
}

/** `bench suite`: the suite as the suites package sequences it, on the runner's run loop. */
export function runSuite(project: Project, request: SuiteRunRequest): Promise<RunDocument> {
  const { hosts, onEvent, signal } = request;
  return runSuiteOn(
    request,
    runnerSuiteHost({ project, ...(hosts ? { hosts } : {}), ...(onEvent ? { onEvent } : {}), ...(signal ? { signal } : {}) }),
  );
}
