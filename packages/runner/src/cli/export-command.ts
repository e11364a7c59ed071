import path from 'node:path';
import type { Command } from 'commander';
import { errors } from '@bench/core';
import { exportK6 } from '../k6-export/export-k6.js';
import { givenRunOptions } from '../options/index.js';
import { resolveRunOptions } from '../options/resolve.js';
import { resolveScenarios } from '../plan.js';
import { loadProject } from '../project/project.js';

/** The run options an export carries into its k6 script. */
export const exportOptionKeys = [
  'concurrency',
  'durationSeconds',
  'requests',
  'keepAlive',
  'timeoutSeconds',
  'rate',
  'generators',
] as const;

/** `bench export k6 <scenario> --url URL`: a k6 script and k6-operator manifests for a run on generators elsewhere. */
export async function exportCommand(format: string, scenarioName: string, command: Command): Promise<void> {
  if (format !== 'k6') throw errors.usage(`bench export knows one format, k6 (got "${format}"): bench export k6 <scenario> --url URL`);
  const flags = command.opts<{ config?: string; url: string; out?: string }>();
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const [scenario] = resolveScenarios([scenarioName], project.scenarios);
  if (!scenario) return;
  const options = resolveRunOptions({ scenarios: [scenario.name] }, givenRunOptions(command, [...exportOptionKeys]));
  if (options.concurrency.length !== 1)
    throw errors.usage(`-c takes one level for an export (got ${options.concurrency.join(',')}): export each level on its own`);
  const dir = path.resolve(flags.out ?? `k6-${scenario.name}`);
  const generators = options.generators ?? 1;
  const written = exportK6({
    scenario,
    baseUrl: flags.url,
    dir,
    shape: {
      connections: options.concurrency[0] ?? 10,
      ...(options.requests !== undefined ? { requests: options.requests } : { durationSeconds: options.durationSeconds ?? 10 }),
      ...(options.rate !== undefined ? { rate: options.rate } : {}),
      keepAlive: options.keepAlive,
      timeoutSeconds: options.timeoutSeconds,
      generators,
    },
  });
  process.stdout.write(`${written.map((f) => path.relative(process.cwd(), f) || f).join('\n')}\n`);
  process.stderr.write(
    `bench: ${scenario.name} for k6 on ${generators} generator(s) in ${dir}; its README.md says how to run it and \`bench import ${path.relative(process.cwd(), dir) || '.'}\` reads the samples back\n`,
  );
}
