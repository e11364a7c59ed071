import path from 'node:path';
import { assertPortFree, assertWritableFile, errors, type Reporter } from '@bench/core';
import { loadReporter } from '@bench/reporters';
import { builtinTargets } from '@bench/targets';
import { DEFAULTS, parseNameList, validateRunOptions, type RunOptions } from '../options.js';
import { ensureOpenFiles } from '../open-files.js';
import { runBench } from '../run.js';
import { createServiceManager } from '../services/service-manager.js';
import { interruptSignal } from './interrupt.js';
import { progressPrinter } from './progress.js';
import type { ReporterSpec } from './reporter-specs.js';

export interface RunFlags {
  concurrency?: number[];
  duration?: number;
  requests?: number;
  targets?: string;
  keepalive: boolean;
  warmup: number;
  timeout: number;
  repeat?: number;
  workers?: number;
  poolSize?: number;
  port?: number;
  reporterOption?: string[];
}

export function runOptionsFromFlags(scenarios: readonly string[], flags: RunFlags): RunOptions {
  return validateRunOptions({
    scenarios: parseNameList(scenarios),
    ...(flags.targets !== undefined ? { targets: parseNameList([flags.targets]) } : {}),
    concurrency: flags.concurrency ?? [...DEFAULTS.concurrency],
    ...(flags.requests !== undefined
      ? { requests: flags.requests, ...(flags.duration !== undefined ? { durationSeconds: flags.duration } : {}) }
      : { durationSeconds: flags.duration ?? DEFAULTS.durationSeconds }),
    keepAlive: flags.keepalive,
    warmupSeconds: flags.warmup,
    timeoutSeconds: flags.timeout,
    ...(flags.repeat !== undefined ? { repeat: flags.repeat } : {}),
    ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
    ...(flags.poolSize !== undefined ? { poolSize: flags.poolSize } : {}),
    ...(flags.port !== undefined ? { port: flags.port } : {}),
  });
}

function parseReporterOptions(pairs: readonly string[] = []): Record<string, string> {
  const options: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw errors.usage(`--reporter-option "${pair}" must look like key=value`);
    options[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return options;
}

export async function loadReporters(specs: readonly ReporterSpec[], optionPairs?: readonly string[]): Promise<Reporter[]> {
  const options = parseReporterOptions(optionPairs);
  const stdout = (text: string) => void process.stdout.write(text);
  for (const spec of specs) if (spec.out) assertWritableFile(spec.out);
  const reporters: Reporter[] = [];
  for (const spec of specs) {
    reporters.push(await loadReporter(spec.name, { options, stdout, ...(spec.out ? { outFile: path.resolve(spec.out) } : {}) }));
  }
  return reporters;
}

export async function runCommand(scenarios: string[], flags: RunFlags, reporterSpecs: readonly ReporterSpec[]): Promise<void> {
  const options = runOptionsFromFlags(scenarios, flags);
  ensureOpenFiles(Math.max(...options.concurrency));
  // a taken --port is bad input: say so before anything starts
  if (options.port !== undefined) await assertPortFree(options.port);
  const reporters = await loadReporters(reporterSpecs, flags.reporterOption);
  const interrupt = interruptSignal();
  try {
    await runBench(options, {
      targets: builtinTargets,
      reporters,
      services: createServiceManager(),
      onEvent: progressPrinter(options),
      signal: interrupt.signal,
      command: ['bench', ...process.argv.slice(2)].join(' '),
    });
  } finally {
    interrupt.dispose();
  }
}
