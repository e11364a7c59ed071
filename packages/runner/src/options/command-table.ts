import { builtinEngines } from '@bench/engines';
import { formatsFor } from '@bench/reporters';
import { errors, longFlag, rangedParse, rangedParser, type AnyOptionDeclaration, type OptionTable } from '@bench/core';
import { runOptionDeclarations, type RunOptionKey } from './declarations.js';
import { commandOptionDeclarations, type CommandOptionKey } from './command-options.js';
import { hostOptionKeys } from './host-options.js';
import { DEFAULT_OPEN_LOOP_RATE, defaultSelfbenchEngines } from '../selfbench/selfbench.js';

// Which command takes which flag: every flag of every command, each declared once (a run's options in
// declarations.ts, the others in command-options.ts). `bench <command> --help` is registered from this table
// (commander-options.ts) and docs/running.md's "Other commands' options" is written from it (options-doc.ts).

export type OptionKey = RunOptionKey | CommandOptionKey;

/** In `bench run`'s list: every option of the run's table, bench's own and its engines' (a config's engines' too). */
export const EVERY_RUN_OPTION = 'every run option';

/**
 * How one command takes an option differently from its declaration: each difference named, and why, so that the
 * table and the docs show it. Nothing else of the declaration changes (flags, description, parser, range).
 */
export interface OptionOverride {
  /** Another default, which commander fills in: selfbench's -c 50 where a run's is 10. */
  readonly default?: string | number | readonly number[];
  /** How --help and the docs give a default the command works out itself (suite's -e: the suite's own engine). */
  readonly defaultText?: string;
  /** The command cannot go without it (export's --url). */
  readonly required?: true;
  /** The values this command takes (the formats that can render what it writes). */
  readonly choices?: readonly string[];
  /** A comma-separated list of the option's values, each measured (selfbench's --client-threads 1,2). */
  readonly list?: true;
  /** Why: the docs give it beside the flag. */
  readonly why?: string;
}

export interface CommandFlags {
  /** The options it takes, in the order --help lists them. */
  readonly options: ReadonlyArray<OptionKey | typeof EVERY_RUN_OPTION>;
  readonly overrides?: { readonly [K in OptionKey]?: OptionOverride };
}

/** The run options an export carries into its files: the load's shape, and the exporting engines' own options. */
export const exportOptionKeys = [
  'concurrency',
  'durationSeconds',
  'requests',
  'keepAlive',
  'timeoutSeconds',
  'rate',
  ...builtinEngines.flatMap((engine) => (engine.exporter ? Object.keys(engine.options ?? {}) : [])),
] as RunOptionKey[];

/** The run options `bench noise` takes (the load shape and the machine's pinning). */
export const noiseOptionKeys: readonly RunOptionKey[] = [
  'concurrency',
  'durationSeconds',
  'warmupSeconds',
  'engine',
  'cpus',
  'seed',
  ...hostOptionKeys,
];

const reporters = ['reporter', 'out', 'reporterOption'] as const;
// the history commands read the history a run's --history adds to: the same flag, a file here
const historyFile = { history: { defaultText: "the config's defaults.history, else bench-history.jsonl beside the config" } };

/** Every command's flags, by its words after `bench` (`bench` itself: what every command line takes). */
export const commandTable = {
  bench: { options: ['debug'] },
  run: {
    options: ['targets', 'config', EVERY_RUN_OPTION, ...reporters, 'debug'],
    overrides: { reporter: { defaultText: "the config's reporters, else markdown" } },
  },
  list: { options: ['config', 'all'] },
  serve: { options: ['config', 'host', 'port', 'workers', 'poolSize', 'tfbBurst', 'db'] },
  doctor: { options: ['config', 'serverHost', 'sshConfig', 'remoteDir'] },
  agent: { options: ['config'] },
  verify: { options: ['targets', 'config', 'jobs', 'tfbBurst', 'db', ...hostOptionKeys] },
  report: {
    options: [...reporters],
    overrides: { reporter: { defaultText: "suite for a suite's results, else markdown" } },
  },
  suite: {
    options: ['scale', 'repeat', 'targets', 'engine', 'config', ...reporters, 'db', ...hostOptionKeys],
    overrides: {
      repeat: { defaultText: "3, the rounds of the ratios' intervals", why: "a number of rounds (auto is bench run's)" },
      targets: { defaultText: "the suite's" },
      engine: { defaultText: "the suite's own (techempower's: wrk, as TFB's)" },
      reporter: { defaultText: 'suite' },
    },
  },
  export: {
    options: ['url', 'out', 'config', ...exportOptionKeys],
    overrides: {
      url: { required: true, why: 'the server the generators will drive, e.g. http://10.0.0.2:8080 (`bench serve --host` there)' },
      out: { defaultText: '<engine>-<scenario>', why: 'the folder to write' },
    },
  },
  import: { options: ['config', ...reporters] },
  compare: {
    options: ['base', 'head', 'failIf', 'allowUndecided', 'noisePercent', 'format', 'out'],
    overrides: { format: { choices: formatsFor('comparison') } },
  },
  history: { options: [] },
  'history add': { options: ['history', 'config', 'commit', 'branch', 'commitTime', 'partial', 'profiles'], overrides: historyFile },
  'history check': { options: ['failIf', 'maxPValue', 'history', 'config'], overrides: historyFile },
  'history show': { options: ['last', 'maxPValue', 'history', 'config'], overrides: historyFile },
  'history report': {
    options: ['format', 'out', 'maxPValue', 'history', 'config'],
    overrides: { ...historyFile, format: { choices: formatsFor('history'), default: 'html', why: 'one self-contained page' } },
  },
  noise: {
    options: ['target', 'rounds', 'config', ...noiseOptionKeys],
    overrides: { target: { required: true } },
  },
  selfbench: {
    options: ['concurrency', 'durationSeconds', 'rounds', 'engines', 'cpus', 'rate', 'clientThreads'],
    overrides: {
      concurrency: { default: [50], why: "enough connections to find an engine's ceiling" },
      durationSeconds: { default: 5, why: 'many runs: each engine through bench and bare, at each level, every round' },
      rounds: { default: 3, why: 'each round runs every engine twice' },
      engines: {
        defaultText: `${defaultSelfbenchEngines()
          .map((e) => e.name)
          .join(',')}: those with a bare tool, and bench's own closed loops`,
      },
      cpus: { defaultText: 'with 2+ cores: server=0,client=1', why: 'the server and the generator kept apart' },
      rate: {
        list: true,
        defaultText: `${DEFAULT_OPEN_LOOP_RATE} for the open-loop engine; none for the others`,
        why: 'each rate measured: the open-loop engine at each, and an engine that also runs closed (wire) at each beside its closed loop, the cost of a request at a set rate against the closed loop in the same rounds',
      },
      clientThreads: { list: true, defaultText: '1,2', why: 'the in-process engines measured at each thread count' },
    },
  },
} as const satisfies Record<string, CommandFlags>;

export type CommandName = keyof typeof commandTable;

/** One option as one command takes it: its declaration, and what the command's override changes. */
export interface CommandOption {
  readonly key: string;
  readonly declaration: AnyOptionDeclaration;
  /** Of the run's table: its default is the run's (resolved with a config's `defaults` between), not filled in here. */
  readonly runOption: boolean;
  readonly override: OptionOverride | undefined;
  /** As commander takes them: the declaration's, `<list>` for an option taken as a list. */
  readonly flags: string;
  /** How --help and the docs give its default. */
  readonly shownDefault: string | undefined;
  /** What commander fills in when the flag is not given. */
  readonly filled: unknown;
  /** From command-line text, its range applied. */
  readonly parse: ((raw: string, previous?: unknown) => unknown) | undefined;
}

/** "1,2" -> [1, 2]: each value by the declaration's parser, duplicates dropped, the range applied to each. */
function listParse(declaration: AnyOptionDeclaration): (raw: string) => unknown[] {
  const flag = longFlag(declaration.flags);
  const one = (declaration.parse as ((raw: string) => unknown) | undefined) ?? ((raw: string) => raw);
  const parse = (raw: string) => {
    const parts = raw.split(',').map((part) => part.trim());
    if (parts.some((part) => part === '')) throw errors.badNumber(flag, raw, 'a comma-separated list of whole numbers greater than 0');
    return [...new Set(parts.map((part) => one(part)))];
  };
  return declaration.range ? rangedParser(flag, declaration.range, parse) : parse;
}

function shownDefaultOf(declaration: AnyOptionDeclaration, override: OptionOverride | undefined): string | undefined {
  if (override?.defaultText !== undefined) return override.defaultText;
  if (override?.default !== undefined) return String(override.default);
  if (declaration.defaultText !== undefined) return declaration.defaultText;
  return declaration.default !== undefined && !declaration.flags.startsWith('--no-') ? String(declaration.default) : undefined;
}

/** One option of a command's, from `table` (bench's own run options, or a project's with its engines'), else from bench's other flags. */
export function commandOption(
  key: string,
  override: OptionOverride | undefined,
  table: OptionTable = runOptionDeclarations,
): CommandOption {
  const own = (commandOptionDeclarations as OptionTable)[key];
  const declaration = own ?? table[key];
  if (!declaration) throw new Error(`no option "${key}" is declared`);
  return {
    key,
    declaration,
    runOption: own === undefined,
    override,
    flags: override?.list ? declaration.flags.replace(/<[^>]+>/, '<list>') : declaration.flags,
    shownDefault: shownDefaultOf(declaration, override),
    filled: override?.default !== undefined ? override.default : own ? declaration.default : undefined,
    parse: override?.list ? listParse(declaration) : rangedParse(declaration),
  };
}

/** A command's options as it takes them, in the table's order; `runTable` gives `bench run` every option of a project's. */
export function commandOptions(name: CommandName, runTable: OptionTable = runOptionDeclarations): CommandOption[] {
  const flags: CommandFlags = commandTable[name];
  return flags.options.flatMap((entry) =>
    (entry === EVERY_RUN_OPTION ? Object.keys(runTable) : [entry]).map((key) =>
      commandOption(key, flags.overrides?.[key as OptionKey], runTable),
    ),
  );
}
