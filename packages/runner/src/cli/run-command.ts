import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { errors, parseNameList } from '@bench/core';
import { givenRunOptions } from '../options/index.js';
import { loadProject } from '../project/project.js';
import type { reporterSpecCollector } from '../reporters/reporter-spec.js';
import { loadReporters, parseReporterOptions } from '../reporters/load-reporters.js';
import { runProject } from '../run/run-project.js';
import { interruptSignal } from './interrupt.js';
import { journalPath } from '../journal/journal-location.js';
import { startDashboard, type Dashboard } from '../dashboard/dashboard-server.js';
import { closeOutputs, recordInOutputs, startOutputs } from '../outputs/start-outputs.js';
import type { RunEvent } from '../run/run-events.js';
import type { Project } from '../project/project.js';
import { DEFAULT_DASHBOARD_PORT, type RunOptionInput } from '../options/declarations.js';
import type { Redaction } from '@bench/core';
import { runRedaction } from '../redact/run-redaction.js';
import { progressPrinter } from './progress.js';

const alsoTo =
  (first: (event: RunEvent) => void, second: (event: RunEvent) => void) =>
  (event: RunEvent): void => {
    first(event);
    second(event);
  };

/** `bench run`: the config (if any), the flags over it, the reporters, progress on stderr; exit 1 when a threshold fails. */
export async function runCommand(
  scenarios: string[],
  command: Command,
  reporterSpecs: ReturnType<typeof reporterSpecCollector>,
): Promise<void> {
  const flags = command.opts<{ config?: string; targets?: string; reporterOption?: string[] }>();
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const given = givenRunOptions(command, Object.keys(project.optionTable), project.optionTable);
  // every line this command writes, its errors included, goes through the run's redaction
  const redaction = runRedaction(project, given, Object.values(reporterSpecs.outputs()));
  try {
    await runWith(scenarios, flags, project, given, reporterSpecs, redaction);
  } catch (error) {
    throw redaction.error(error);
  }
}

async function runWith(
  scenarios: string[],
  flags: { targets?: string; reporterOption?: string[] },
  project: Project,
  given: RunOptionInput,
  reporterSpecs: ReturnType<typeof reporterSpecCollector>,
  redaction: Redaction,
): Promise<void> {
  const say = (line: string) => process.stderr.write(redaction.text(line));
  // `bench run --history hello`: commander hands "hello" to --history's optional file; scenario names (and no such file) are scenarios
  const history = given.history;
  if (
    typeof history === 'string' &&
    !existsSync(history) &&
    parseNameList([history]).every((name) => project.scenarios.some((s) => s.name === name))
  ) {
    scenarios = [...scenarios, history];
    given = { ...given, history: true };
  }
  // a path on the command line is from here; one in the config is from the config's folder
  const options = typeof given.history === 'string' ? { ...given, history: path.resolve(given.history) } : given;
  const specs = reporterSpecs.specs(project.reporters);
  const reporters = await loadReporters(specs, parseReporterOptions(flags.reporterOption));
  const journal = journalPath(
    options.journal ?? project.defaults?.journal,
    specs.flatMap((spec) => (spec.out !== undefined ? [spec.out] : [])),
    (line) => say(`bench: ${line}\n`),
  );
  const receivers = {
    prometheus: options.prometheus ?? reporterSpecs.outputs().prometheus ?? project.defaults?.prometheus,
    otlp: options.otlp ?? reporterSpecs.outputs().otlp ?? project.defaults?.otlp,
  };
  const outputs = await startOutputs(receivers, options.outHeaders ?? project.defaults?.outHeaders, (line) => say(`bench: ${line}\n`));
  let dashboard: Dashboard | undefined;
  if (options.dashboard ?? project.defaults?.dashboard) {
    if (journal === undefined)
      throw errors.usage('--dashboard draws the run from its journal, which cannot be written here; give --journal FILE');
    dashboard = await startDashboard(
      journal,
      options.dashboardPort ?? project.defaults?.dashboardPort ?? DEFAULT_DASHBOARD_PORT,
      (options.cpus ?? project.defaults?.cpus)?.client,
    );
  }
  if (dashboard) say(`bench: dashboard ${dashboard.url}\n`);
  const interrupt = interruptSignal();
  try {
    const doc = await runProject(project, {
      scenarios: parseNameList(scenarios),
      ...(flags.targets !== undefined ? { targets: parseNameList([flags.targets]) } : {}),
      options: {
        ...options,
        ...(journal !== undefined ? { journal } : {}),
        ...(receivers.prometheus !== undefined ? { prometheus: receivers.prometheus } : {}),
        ...(receivers.otlp !== undefined ? { otlp: receivers.otlp } : {}),
      },
      reporters,
      onEvent: alsoTo(progressPrinter(say), recordInOutputs(outputs)),
      signal: interrupt.signal,
      command: redaction.commandLine(['bench', ...process.argv.slice(2)]),
      redaction,
    });
    if (typeof doc.options['history'] === 'string')
      say(`bench: ${doc.results.length} ${doc.results.length === 1 ? 'cell' : 'cells'} appended to ${doc.options['history']}\n`);
    const failedCells = doc.results.filter((r) => r.status === 'failed');
    if (failedCells.length > 0) {
      const first = failedCells[0]!;
      throw errors.cellsFailed(
        failedCells.length,
        doc.results.length,
        `${first.scenario}/${first.target} c=${first.concurrency}: ${first.error ?? 'failed'}`,
      );
    }
    const failed = (doc.thresholds ?? []).filter((t) => !t.ok);
    if (failed.length > 0) {
      const first = failed[0]!;
      const actual = first.actual === undefined ? 'the cell failed' : `got ${first.actual}`;
      throw errors.thresholdsFailed(
        failed.length,
        doc.thresholds?.length ?? 0,
        `${first.scenario}/${first.target} c=${first.concurrency} ${first.field} ${first.expression}, ${actual}`,
      );
    }
  } finally {
    interrupt.dispose();
    await closeOutputs(outputs, say);
    await dashboard?.finish();
  }
}
