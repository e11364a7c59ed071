import { highestConcurrency } from '../options/declarations.js';
import os from 'node:os';
import {
  assertPortFree,
  errors,
  overTls,
  resolveHost,
  type Reporter,
  type RunDocument,
  allowedCpus,
  expandCpuList,
  ensureOpenFiles,
} from '@bench/core';
import type { RunOptionInput } from '../options/declarations.js';
import { resolveRunOptionsIn } from '../options/resolve.js';
import { withEngine } from '../project/load-engine.js';
import type { Project } from '../project/project.js';
import { runCells, type RunEvent } from './run-cells.js';
import { openHosts, servicesOf } from './run-hosts.js';
import { targetAndScenarioFromUrl } from './from-url.js';
import { appendRunToHistory, historyFilePath } from '@bench/history';
import type { Redaction } from '@bench/core';
import { runRedaction } from '../redact/run-redaction.js';

export interface ProjectRunRequest {
  /** Scenario names; the config's own when absent. */
  readonly scenarios?: readonly string[];
  /** Target names; the config's own (or every available one) when absent. */
  readonly targets?: readonly string[];
  /** Options that override the config's defaults (the command line's flags). */
  readonly options?: RunOptionInput;
  readonly reporters: readonly Reporter[];
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: RunEvent) => void;
  readonly command?: string;
  /** Where a module path in `options.engine` is resolved from; the current directory when absent. */
  readonly cwd?: string;
  /** The run's secrets, hidden in all it writes; made from the project and `options` when absent. */
  readonly redaction?: Redaction;
}

// --cpus may only name CPUs the side's machine offers: this process's, or the server host's.
function assertCpusExist(cpus: { server?: string; client?: string }, serverHost?: { name: string; cpus: number }): void {
  const here = allowedCpus(process.pid) ?? `0-${os.availableParallelism() - 1}`;
  for (const [role, list] of Object.entries(cpus)) {
    const offered = role === 'server' && serverHost ? `0-${serverHost.cpus - 1}` : here;
    const allowed = new Set(expandCpuList(offered));
    const missing = expandCpuList(list).filter((cpu) => !allowed.has(cpu));
    if (missing.length > 0) {
      const machine = role === 'server' && serverHost ? serverHost.name : 'this machine';
      throw errors.usage(`--cpus ${role}=${list} names CPU ${missing.join(', ')}, but ${machine} offers ${offered}; pick from those`);
    }
  }
}

/** Resolves the run's options (request over config over bench's defaults), checks the machine, and runs; no secret in what it writes. */
export async function runProject(project: Project, request: ProjectRunRequest): Promise<RunDocument> {
  const redaction = request.redaction ?? runRedaction(project, request.options);
  try {
    return await runProjectWith(project, request, redaction);
  } catch (error) {
    throw redaction.error(error);
  }
}

async function runProjectWith(project: Project, request: ProjectRunRequest, redaction: Redaction): Promise<RunDocument> {
  const named = request.scenarios && request.scenarios.length > 0 ? request.scenarios : undefined;
  const givenUrl = request.options?.url !== undefined;
  if (givenUrl && request.targets && request.targets.length > 0) {
    throw errors.conflictingOptions('--url names the server to drive; it cannot be combined with -t');
  }
  const targetNames = givenUrl ? undefined : (request.targets ?? project.selected.targets);
  const options = resolveRunOptionsIn(
    project.optionTable,
    {
      scenarios: givenUrl ? (named ?? []) : (named ?? project.selected.scenarios ?? []),
      ...(targetNames ? { targets: targetNames } : {}),
    },
    request.options,
    project.defaults,
  );
  let { targets, scenarios, engines } = project;
  let runOptions = options;
  // --engine may name a module (a path from this directory, or a package): load it beside the registry's
  if (options.engine !== undefined && !engines.some((e) => e.name === options.engine)) {
    const chosen = await withEngine(engines, options.engine, request.cwd ?? process.cwd());
    engines = chosen.engines;
    runOptions = { ...runOptions, engine: chosen.name };
  }
  if (options.url !== undefined) {
    const one = targetAndScenarioFromUrl({ ...options, url: options.url });
    targets = [...targets, one.target];
    scenarios = [...scenarios, one.scenario];
    runOptions = { ...runOptions, scenarios: [one.scenario.name], targets: [one.target.name] };
    // an https:// URL is HTTP/1.1 over TLS unless --protocol h2 says otherwise; an http:// one never is
    const tlsUrl = options.url.startsWith('https:');
    if (tlsUrl && options.protocol === 'http1') runOptions = { ...runOptions, protocol: 'https' };
    if (!tlsUrl && overTls(options.protocol))
      throw errors.usage(`--protocol ${options.protocol} runs over TLS: give an https:// URL (got ${options.url})`);
    // a host name that does not resolve is bad input, said before anything starts
    await resolveHost(options.url);
  } else if (options.ca !== undefined) {
    throw errors.usage(
      '--ca names the authority of a server bench does not start (--url https://...); a run that starts its servers makes its own CA',
    );
  }
  // the stacks' descriptors count here only when they run here
  ensureOpenFiles(highestConcurrency(runOptions), options.url === undefined && options.serverHost === undefined);
  if (runOptions.cpus && runOptions.serverHost === undefined) assertCpusExist(runOptions.cpus);
  // a taken --port is bad input: say so before anything starts
  if (runOptions.port !== undefined && runOptions.serverHost === undefined) await assertPortFree(runOptions.port);
  // --history: bench-history.jsonl (or the path given) beside the config, else in the current directory
  const baseDir = project.config?.dir ?? request.cwd ?? process.cwd();
  const historyFile = historyFilePath(runOptions.history, baseDir);
  if (historyFile !== undefined) runOptions = { ...runOptions, history: historyFile };
  // --server-host: the stacks (and, with --database-host, the services) start on those hosts, through their agents
  const hosts = await openHosts(runOptions);
  let doc: RunDocument;
  try {
    if (hosts && runOptions.cpus) assertCpusExist(runOptions.cpus, { name: hosts.server.label, cpus: hosts.server.info.cpus });
    doc = await runCells(runOptions, {
      targets: hosts ? hosts.targets(targets) : targets,
      scenarios,
      engines,
      optionTable: project.optionTable,
      reporters: request.reporters,
      services: servicesOf(hosts),
      ...(project.thresholds ? { thresholds: project.thresholds } : {}),
      ...(request.onEvent ? { onEvent: request.onEvent } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.command ? { command: request.command } : {}),
      ...(hosts ? { hosts } : {}),
      redaction,
    });
  } finally {
    await hosts?.close();
  }
  if (historyFile !== undefined && doc.complete) await appendRunToHistory(doc, historyFile, baseDir);
  return doc;
}
