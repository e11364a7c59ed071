import path from 'node:path';
import type { Command } from 'commander';
import { errors, workloadRefusal } from '@bench/core';
import { exportOptionKeys, givenRunOptions } from '../options/index.js';
import { resolveRunOptionsIn } from '../options/resolve.js';
import { ownOptionValues } from '../engine-choice/engine-candidates.js';
import { resolveScenarios } from '../run/plan.js';
import { loadProject } from '../project/project.js';
import { TOOL_VERSION } from '../version.js';
import { runRedaction } from '../redact/run-redaction.js';

/** `bench export ENGINE <scenario> --url URL`: the engine's files for a run on generators elsewhere (k6: a script and k6-operator manifests). */
export async function exportCommand(format: string, scenarioName: string, command: Command): Promise<void> {
  const flags = command.opts<{ config?: string; url: string; out?: string }>();
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const exporters = project.engines.filter((e) => e.exporter);
  const engine = exporters.find((e) => e.name === format);
  if (!engine?.exporter)
    throw errors.usage(
      `bench export writes a run for ${exporters.map((e) => e.name).join(', ')} (got "${format}"): bench export ${exporters[0]?.name ?? 'k6'} <scenario> --url URL`,
    );
  const [scenario] = resolveScenarios([scenarioName], project.scenarios);
  if (!scenario) return;
  const given = givenRunOptions(command, exportOptionKeys, project.optionTable);
  const options = resolveRunOptionsIn(project.optionTable, { scenarios: [scenario.name] }, given);
  // the run's secrets (its headers', its URL's, the config's secret() values) stay out of every file but the Secret's
  const redaction = runRedaction(project, { ...given, url: flags.url });
  if (options.concurrency.length !== 1)
    throw errors.usage(`-c takes one level for an export (got ${options.concurrency.join(',')}): export each level on its own`);
  const shape = {
    connections: options.concurrency[0] ?? 10,
    ...(options.requests !== undefined ? { requests: options.requests } : { durationSeconds: options.durationSeconds ?? 10 }),
    ...(options.rate !== undefined ? { rate: options.rate } : {}),
    keepAlive: options.keepAlive,
    timeoutSeconds: options.timeoutSeconds,
  };
  const own = ownOptionValues(engine, options);
  const support = engine.supports(shape, scenario.request, scenario.expect.body, own);
  if (!support.ok) throw errors.engineUnsupported(engine.name, support.reason);
  const refusal = scenario.workload && workloadRefusal(engine, scenario.workload, scenario.name, []);
  if (refusal) throw errors.engineUnsupported(engine.name, refusal);
  const dir = path.resolve(flags.out ?? `${engine.name}-${scenario.name}`);
  const written = await engine.exporter.write({
    scenario,
    baseUrl: flags.url,
    dir,
    shape,
    options: own,
    toolVersion: TOOL_VERSION,
    secretNames: [...(project.defaults?.redact ?? [])],
    secretValues: redaction.values,
  });
  process.stdout.write(`${written.map((f) => path.relative(process.cwd(), f) || f).join('\n')}\n`);
  process.stderr.write(
    redaction.text(
      `bench: ${scenario.name} for ${engine.name} in ${dir}; its README.md says how to run it and \`bench import ${path.relative(process.cwd(), dir) || '.'}\` reads the samples back\n`,
    ),
  );
}
