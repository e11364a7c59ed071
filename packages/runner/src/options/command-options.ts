import { always, errors, maybe, parsePositiveInteger, parsePositiveNumber, z } from '@bench/core';
import { builtinEngines } from '@bench/engines';
import { builtinReporterNames } from '../reporters/load-reporters.js';
import { sharedRanges } from './declarations.js';

// The flags of bench's commands that are no option of a run, declared as a run's are (declarations.ts): flags,
// description, type, parser, default, range. Each flag is declared once, here or there; command-table.ts says which
// command takes which, and where a command takes one differently (another default), it says so there.
// Their defaults commander fills in: the commands read these flags as they are given (a run's own options get theirs
// from the run, a config's `defaults` between).

const positiveInt = z.number().int().positive();

function parsePValue(raw: string): number {
  const value = Number(raw);
  if (!(value > 0 && value < 1)) throw errors.badNumber('--max-p-value', raw, 'a probability between 0 and 1, e.g. 0.001');
  return value;
}

function parseCommitTime(raw: string): string {
  const time = Date.parse(raw);
  if (Number.isNaN(time)) throw errors.usage(`--commit-time "${raw}" is not a date; give ISO 8601, e.g. 2026-01-31T12:00:00Z`);
  return new Date(time).toISOString();
}

export const commandOptionDeclarations = {
  // every command's
  debug: maybe({
    flags: '--debug',
    description: 'print stack traces of errors',
    schema: z.boolean(),
  }),
  config: maybe({
    flags: '--config <file>',
    description: 'config file',
    schema: z.string().min(1),
    defaultText: 'bench.config.{ts,mts,mjs,js,json} in this directory',
  }),
  targets: maybe({
    flags: '-t, --targets <list>',
    description: "targets (comma-separated); bench suite: only these of the suite's, the other rows stay unmeasured",
    schema: z.string().min(1),
    defaultText: "the config's, else every available target",
  }),
  // the reporters' (bench run, report, suite, import)
  reporter: maybe({
    flags: '-r, --reporter <name>',
    description: `${builtinReporterNames.join(', ')}, or a module path / package name; may repeat`,
    schema: z.string().min(1),
    defaultText: 'markdown',
  }),
  out: maybe({
    flags: '-o, --out <file>',
    description:
      "write to this file: the preceding --reporter's output (bench run's also to --out prometheus=URL or otlp=URL), the comparison, the history page (needed for html), or bench export's folder",
    schema: z.string().min(1),
    defaultText: 'standard output',
  }),
  reporterOption: maybe<string[]>({
    flags: '--reporter-option <key=value>',
    description: 'option passed to reporters; may repeat',
    schema: z.array(z.string()),
    parse: (raw, previous) => [...(previous ?? []), raw],
  }),
  // bench list
  all: maybe({
    flags: '--all',
    description: 'also every stack article 000 compared: the target for it today, or why none can',
    schema: z.boolean(),
  }),
  // bench serve
  host: maybe({
    flags: '--host <address>',
    description: 'listen on this address, for a load generator on another host (bench run --url there)',
    schema: z.string().min(1),
    defaultText: '127.0.0.1',
  }),
  // bench verify
  jobs: always({
    flags: '-j, --jobs <n>',
    range: { min: 1, max: 64 },
    description: 'verify this many targets at once',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--jobs', raw),
    default: 1,
  }),
  // bench suite
  scale: always({
    flags: '--scale <factor>',
    range: { min: 0.001, max: 1 },
    description: 'shrink requests, durations and concurrency for a quick run (e.g. 0.1)',
    schema: z.number().positive(),
    parse: (raw) => parsePositiveNumber('--scale', raw),
    default: 1,
  }),
  // bench compare, bench history
  base: maybe({
    flags: '--base <target>',
    description: 'the baseline target of a run that measured both (paired by round)',
    schema: z.string().min(1),
  }),
  head: maybe({
    flags: '--head <target>',
    description: 'the changed target of that run',
    schema: z.string().min(1),
  }),
  failIf: maybe({
    flags: '--fail-if <limits>',
    description:
      'exit 1 when a change is beyond a limit and beyond the noise, e.g. "rps<-5%,p99>+10%" (bench history check: the newest change point of a series)',
    schema: z.string().min(1),
  }),
  allowUndecided: maybe({
    flags: '--allow-undecided',
    description: 'let --fail-if pass when a limit has no verdict (else exit 3)',
    schema: z.boolean(),
  }),
  format: always({
    flags: '--format <format>',
    description: 'output format (html: one self-contained page with charts; give -o)',
    schema: z.string().min(1),
    default: 'markdown',
  }),
  maxPValue: always({
    flags: '--max-p-value <p>',
    description: 'a change point needs a t-test p-value at most this',
    schema: z.number().positive().lt(1),
    parse: parsePValue,
    default: 0.001,
  }),
  commit: maybe({
    flags: '--commit <sha>',
    description: 'the commit measured',
    schema: z.string().min(1),
    defaultText: 'git rev-parse HEAD',
  }),
  branch: maybe({
    flags: '--branch <name>',
    description: 'its branch',
    schema: z.string().min(1),
    defaultText: 'the checked-out branch',
  }),
  commitTime: maybe({
    flags: '--commit-time <iso>',
    description: "the commit's time",
    schema: z.string().min(1),
    parse: parseCommitTime,
    defaultText: "git's committer time",
  }),
  partial: maybe({
    flags: '--partial',
    description: 'add the finished cells of a run that did not finish (interrupted, or read from the journal of a killed run)',
    schema: z.boolean(),
  }),
  profiles: maybe({
    flags: '--profiles',
    description:
      "keep each cell's CPU profile (a run with --profile): the history page then draws where the CPU moved at each change point",
    schema: z.boolean(),
  }),
  last: always({
    flags: '--last <n>',
    range: { min: 1, max: 100_000 },
    description: 'runs per series',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--last', raw),
    default: 20,
  }),
  // bench noise, bench selfbench
  target: maybe({
    flags: '-t, --target <name>',
    description: 'the target to run twice per round',
    schema: z.string().min(1),
  }),
  rounds: always({
    flags: '--rounds <n>',
    range: sharedRanges.rounds,
    description:
      'rounds: bench noise runs its target twice in each (A/A), bench selfbench each engine through bench and bare (A/B, the order alternating)',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--rounds', raw),
    default: 6,
  }),
  engines: maybe({
    flags: '--engines <list>',
    description: `engines to measure (comma-separated), of ${builtinEngines.map((e) => e.name).join(', ')}; all: every one available here`,
    schema: z.string().min(1),
  }),
};

export type CommandOptionKey = keyof typeof commandOptionDeclarations;
