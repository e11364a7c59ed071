import type { Command } from 'commander';
import { errors, type TargetPlugin } from '@bench/core';
import { noiseFloor, type NoiseFloor } from '@bench/compare';
import { givenRunOptions, noiseOptionKeys } from '../options/index.js';
import { loadProject } from '../project/project.js';
import { runProject } from '../run/run-project.js';
import { interruptSignal } from './interrupt.js';
import { progressPrinter } from './progress.js';

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** The same target under a second name, so one run can start it twice per round (an A/A comparison). */
const alias = (target: TargetPlugin, name: string): TargetPlugin =>
  Object.create(target, { name: { value: name }, aliasOf: { value: target.aliasOf ?? target.name } }) as TargetPlugin;

function render(floors: readonly NoiseFloor[], target: string): string {
  const out = [
    `Noise floor of ${target}: the same target twice per round (A/A, in a random order), per-round ratios B/A.`,
    '',
    '| scenario | c | rounds | rps (median) | run-to-run CV | per-round ratio spread | noise threshold it supports | rounds to see 2% | 5% | 10% |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const f of floors) {
    const rounds = f.roundsToDetect.map((r) => String(r.rounds));
    out.push(
      `| ${f.scenario} | ${f.concurrency} | ${f.rounds} | ${fmt(f.medianRps, 0)} | ${fmt(f.runCvPercent)}% | ${fmt(f.ratioSdPercent)}% | ±${fmt(f.thresholdPercent)}% | ${rounds.join(' | ')} |`,
    );
  }
  out.push(
    '',
    "- run-to-run CV: standard deviation over mean of every run's rps; the per-round ratio spread: standard deviation of ln(B/A), what a paired comparison sees.",
    '- noise threshold: the smallest --noise an identical pair is likely to be decided "within noise" with, within 20 rounds.',
    '- rounds to see a change: n = ((1.96 + 0.84) x 1.2533 x spread / change)^2, for a 95% interval of the median ratio to exclude no change with 80% power (at least 5, the fewest a paired verdict needs); `bench compare` calls it changed only beyond --noise.',
  );
  return `${out.join('\n')}\n`;
}

/** `bench noise <scenario> -t <target> --rounds n`: this machine's run-to-run spread, measured on A/A rounds. */
export async function noiseCommand(scenario: string, command: Command): Promise<void> {
  const flags = command.opts<{ config?: string; target: string; rounds: number }>();
  if (flags.rounds < 3) throw errors.usage(`--rounds ${flags.rounds} is too few: a spread needs at least 3 rounds (6 or more is better)`);
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const target = project.targets.find((t) => t.name === flags.target);
  if (!target)
    throw errors.unknownTarget(
      flags.target,
      project.targets.map((t) => t.name),
    );
  const [a, b] = [alias(target, `${target.name}#1`), alias(target, `${target.name}#2`)];
  const interrupt = interruptSignal();
  try {
    const doc = await runProject(
      { ...project, targets: [...project.targets, a, b] },
      {
        scenarios: [scenario],
        targets: [a.name, b.name],
        options: { ...givenRunOptions(command, noiseOptionKeys), repeat: flags.rounds },
        reporters: [],
        onEvent: progressPrinter(),
        signal: interrupt.signal,
        command: ['bench', ...process.argv.slice(2)].join(' '),
      },
    );
    const failed = doc.results.filter((r) => r.status === 'failed');
    if (failed.length > 0)
      throw errors.cellsFailed(
        failed.length,
        doc.results.length,
        `${failed[0]!.target} c=${failed[0]!.concurrency}: ${failed[0]!.error ?? 'failed'}`,
      );
    process.stdout.write(render(noiseFloor(doc, { base: a.name, head: b.name }), target.name));
  } finally {
    interrupt.dispose();
  }
}
