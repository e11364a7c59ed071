import { Command, Option } from 'commander';
import { formatsFor } from '@bench/reporters';
import { TOOL_VERSION } from '../version.js';
import { addRunOptions, runOptionDeclarations, sharedRanges } from '../options/index.js';
import { reporterSpecCollector } from '../reporters/reporter-spec.js';
import { runCommand } from './run-command.js';
import { listCommand } from './list-command.js';
import { serveCommand } from './serve-command.js';
import { verifyCommand } from './verify-command.js';
import { doctorCommand } from './doctor-command.js';
import { agentCommand } from './agent-command.js';
import { hostOptionKeys, type HostOptions } from '../options/host-options.js';
import { reportCommand } from './report-command.js';
import { compareCommand, type CompareFlags } from './compare-command.js';
import { noiseCommand, noiseOptionKeys } from './noise-command.js';
import { defaultSelfbenchEngines, selfbenchCommand, type SelfbenchFlags } from './selfbench-command.js';
import { builtinEngines } from '@bench/engines';
import {
  parseConcurrencyList,
  parsePositiveInteger,
  parsePositiveNumber,
  parsePositiveSeconds,
  rangedParser,
  type DatabaseChoice,
} from '@bench/core';
import { DEFAULT_OPEN_LOOP_RATE } from '../selfbench/selfbench.js';
import { suiteCommand } from './suite-command.js';
import { exportCommand, exportOptionKeys } from './export-command.js';
import { importCommand } from './import-command.js';
import { addHistoryCommand } from './history-command.js';
import { parseHttpUrl, type OptionTable } from '@bench/core';
import { builtinPluginNames, pluginsHelpText, type PluginNames } from './plugin-names.js';
import { defaultRedaction, type Redaction } from '../redact/redaction.js';

// Flags that are not run options (those are declared in options/declarations.ts), each declared once here.
const configFlag = () => new Option('--config <file>', 'config file (default: bench.config.{ts,mts,mjs,js,json} in this directory)');
const targetsFlag = () =>
  new Option('-t, --targets <list>', "targets (comma-separated); default: the config's, else every available target");
const reporterOptionFlag = () =>
  new Option('--reporter-option <key=value>', 'option passed to reporters; may repeat').argParser((v: string, prev: string[] = []) => [
    ...prev,
    v,
  ]);

function reporterFlags(command: Command, collector: ReturnType<typeof reporterSpecCollector>, reporters: readonly string[]): Command {
  return command
    .addOption(
      new Option(
        '-r, --reporter <name>',
        `${reporters.join(', ')} (markdown by default), or a module path / package name; may repeat`,
      ).argParser(collector.addReporter),
    )
    .addOption(new Option('-o, --out <file>', "write the preceding reporter's output to this file").argParser(collector.addOut))
    .addOption(reporterOptionFlag());
}

/**
 * The CLI; `plugins` (read from the registries when absent) fill the help's lists of names, and `optionTable` gives
 * `bench run` its flags (bench's own options, its engines' and, when a config adds engines, theirs).
 */
export function buildProgram(
  plugins: PluginNames = builtinPluginNames(),
  optionTable: OptionTable = runOptionDeclarations,
  shown: Redaction = defaultRedaction,
): Command {
  const program = new Command('bench')
    .description('Benchmark server-side stacks, and your own server, on fixed scenarios with real servers and verified answers')
    .version(TOOL_VERSION)
    .option('--debug', 'print stack traces of errors')
    .exitOverride()
    .showSuggestionAfterError()
    // commander's own errors (an unknown option, a missing argument) are bad input like bench's: the same coded line
    .configureOutput({
      writeErr: (text) =>
        process.stderr.write(
          shown.text(
            text.startsWith('error: ')
              ? `bench: BENCH_ERR_USAGE: ${text.slice('error: '.length).trimEnd().replace(/\n/g, ' ')}${text.includes('Did you mean') ? '' : ' (--help lists what it takes)'}\n`
              : text,
          ),
        ),
    })
    .addHelpText('afterAll', pluginsHelpText(plugins));

  const runReporters = reporterSpecCollector();
  const run = program
    .command('run')
    .description('start targets, verify their answers, drive them with a load engine, report')
    .argument('[scenario...]', "scenarios to run (names or comma-separated lists; default: the config's)")
    .addOption(targetsFlag())
    .addOption(configFlag());
  addRunOptions(run, Object.keys(optionTable), optionTable);
  reporterFlags(run, runReporters, plugins.reporters)
    .option('--debug', 'print stack traces of errors')
    .action((scenarios: string[], _flags, command: Command) => runCommand(scenarios, command, runReporters));

  program
    .command('list')
    .description('scenarios, targets and engines, with availability on this machine')
    .addOption(configFlag())
    .option('--all', 'also every stack article 000 compared: the target for it today, or why none can')
    .action((flags: { config?: string; all?: boolean }) => listCommand(flags));

  const serve = program
    .command('serve')
    .description('start one target serving one scenario, print its URL, stop on Ctrl-C')
    .argument('<target>', 'target name')
    .argument('<scenario>', 'scenario name')
    .addOption(configFlag());
  serve.option(
    '--host <address>',
    'listen on this address instead of 127.0.0.1, for a load generator on another host (bench run --url there)',
  );
  addRunOptions(serve, ['port', 'workers', 'poolSize', 'tfbBurst', 'db']).action(
    (target: string, scenario: string, _flags, command: Command) => serveCommand(target, scenario, command),
  );

  const doctor = program
    .command('doctor')
    .description(
      'what is installed for every target, engine and service, and the apt-get line for what is missing (--server-host: on that host)',
    )
    .addOption(configFlag());
  addRunOptions(doctor, ['serverHost', 'sshConfig', 'remoteDir']).action((flags: { config?: string } & HostOptions) =>
    doctorCommand(flags),
  );

  program
    .command('agent')
    .description(
      'what a run on another machine starts here over SSH (--server-host): JSON lines on stdin and stdout; stops all it started when its input closes',
    )
    .addOption(configFlag())
    .action((flags: { config?: string }) => agentCommand(flags));

  const verify = program
    .command('verify')
    .description(
      "start every target once for the scenarios it serves and check status, headers and body (TechEmpower's rules for tfb-*); exit 1 on any failure",
    )
    .argument('[scenario...]', "scenarios to check (default: the config's, else all)")
    .addOption(targetsFlag())
    .addOption(configFlag())
    .option(
      '-j, --jobs <n>',
      'verify this many targets at once',
      rangedParser('--jobs', { min: 1, max: 64 }, (v) => parsePositiveInteger('--jobs', v)),
      1,
    );
  addRunOptions(verify, ['tfbBurst', 'db', ...hostOptionKeys]).action(
    (
      scenarios: string[],
      flags: { targets?: string; config?: string; jobs: number; tfbBurst?: number; db?: DatabaseChoice } & HostOptions,
    ) => verifyCommand(scenarios, flags),
  );

  const reportReporters = reporterSpecCollector();
  reporterFlags(
    program
      .command('report')
      .description('render a results file (written by --reporter json --out) through any reporter')
      .argument('<file>', 'results file'),
    reportReporters,
    plugins.reporters,
  ).action((file: string, flags: { reporterOption?: string[] }) => reportCommand(file, flags, reportReporters));

  const suiteReporters = reporterSpecCollector();
  const suite = reporterFlags(
    program
      .command('suite')
      .description("rerun an article's experiment and print its tables, published figures beside today's (`bench suite list` shows them)")
      .argument('<name>', `suite name (${plugins.suites.join(', ')}), or list`)
      .option(
        '--scale <factor>',
        'shrink requests, durations and concurrency for a quick run (e.g. 0.1)',
        rangedParser('--scale', { min: 0.001, max: 1 }, (v) => parsePositiveNumber('--scale', v)),
        1,
      )
      .option(
        '--repeat <n>',
        "measure each cell n times (3 by default: the rounds of the ratios' intervals)",
        rangedParser('--repeat', sharedRanges.rounds, (v) => parsePositiveInteger('--repeat', v)),
      )
      .option('-t, --targets <list>', "only these of the suite's targets (comma-separated); the other rows stay unmeasured")
      .option('-e, --engine <name>', "the load engine in place of the suite's own (techempower's is wrk, as TFB's)")
      .addOption(configFlag()),
    suiteReporters,
    plugins.reporters,
  );
  addRunOptions(suite, ['db', ...hostOptionKeys]).action(
    (
      name: string,
      flags: {
        scale: number;
        repeat?: number;
        targets?: string;
        engine?: string;
        db?: DatabaseChoice;
        config?: string;
        reporterOption?: string[];
      } & HostOptions,
    ) => suiteCommand(name, flags, suiteReporters),
  );

  const exporter = program
    .command('export')
    .description(
      `write a run for generators elsewhere (\`bench import\` reads their samples back): ${builtinEngines
        .filter((e) => e.exporter)
        .map((e) => `${e.name}, ${e.exporter!.description}`)
        .join('; ')}`,
    )
    .argument(
      '<engine>',
      builtinEngines
        .filter((e) => e.exporter)
        .map((e) => e.name)
        .join(' | '),
    )
    .argument('<scenario>', 'scenario name')
    .requiredOption(
      '-u, --url <url>',
      'base URL of the server the generators will drive, e.g. http://10.0.0.2:8080 (`bench serve --host` there)',
      (v) => parseHttpUrl('--url', v),
    )
    .option('--out <dir>', 'folder to write (default: <engine>-<scenario>)')
    .addOption(configFlag());
  addRunOptions(exporter, [...exportOptionKeys]).action((format: string, scenario: string, _flags, command: Command) =>
    exportCommand(format, scenario, command),
  );

  const importReporters = reporterSpecCollector();
  reporterFlags(
    program
      .command('import')
      .description('merge the sample files of an exported run into one bench result (written to DIR/bench-results.json) and report it')
      .argument('<dir>', 'the folder `bench export` wrote')
      .addOption(configFlag()),
    importReporters,
    plugins.reporters,
  ).action((dir: string, flags: { reporterOption?: string[]; config?: string }) => importCommand(dir, flags, importReporters));

  program
    .command('compare')
    .description(
      'compare two results files cell by cell, or two targets of one run round by round (--base, --head): medians, change in %, and a verdict',
    )
    .argument('<base>', 'results file of the baseline (or of the whole run, with --base and --head)')
    .argument('[head]', 'results file of the change')
    .option('--base <target>', 'the baseline target of a run that measured both (paired by round)')
    .option('--head <target>', 'the changed target of that run')
    .option('--fail-if <limits>', 'exit 1 when a change is beyond a limit and beyond the noise, e.g. "rps<-5%,p99>+10%"')
    .option('--allow-undecided', 'let --fail-if pass when a limit has no verdict (else exit 3)')
    .option('--noise <percent>', 'changes smaller than this are noise whatever the statistics say', '5%')
    .addOption(
      new Option('--format <format>', 'output format (html: one self-contained page with charts; give -o)')
        .choices(formatsFor('comparison'))
        .default('markdown'),
    )
    .option('-o, --out <file>', 'write the comparison to this file')
    .action((base: string, head: string | undefined, flags: CompareFlags) => compareCommand(base, head, flags));

  addHistoryCommand(program);

  const noise = program
    .command('noise')
    .description(
      "this machine's run-to-run spread: A/A rounds of one target, the noise threshold they support, and the rounds a 2/5/10% change needs",
    )
    .argument('<scenario>', 'scenario name')
    .requiredOption('-t, --target <name>', 'the target to run twice per round')
    .option(
      '--rounds <n>',
      'A/A rounds',
      rangedParser('--rounds', sharedRanges.rounds, (v) => parsePositiveInteger('--rounds', v)),
      6,
    )
    .addOption(configFlag());
  addRunOptions(noise, noiseOptionKeys).action((scenario: string, _flags, command: Command) => noiseCommand(scenario, command));

  program
    .command('selfbench')
    .description("what bench costs over each bare load tool, and each engine's ceiling on this machine (a benchmark, not a test)")
    .option(
      '-c, --concurrency <list>',
      'connections, a comma-separated list (e.g. 50,3000)',
      rangedParser('-c', sharedRanges.connections, (v) => parseConcurrencyList('-c', v)),
      [50],
    )
    .option(
      '-d, --duration <seconds>',
      'each run',
      rangedParser('-d', sharedRanges.seconds, (v) => parsePositiveSeconds('-d', v)),
      5,
    )
    .option(
      '--rounds <n>',
      'A/B rounds, the order alternating',
      rangedParser('--rounds', sharedRanges.rounds, (v) => parsePositiveInteger('--rounds', v)),
      3,
    )
    .option(
      '--engines <list>',
      `engines to measure, of ${plugins.engines.join(', ')} (default: ${defaultSelfbenchEngines()
        .map((e) => e.name)
        .join(',')}: those with a bare tool, and bench's own closed loops)`,
    )
    .option('--cpus <spec>', 'pinning (default with 2+ cores: server=0,client=1)')
    .option(
      '--rate <rps>',
      `the open-loop engine's arrival rate, requests per second (default: ${DEFAULT_OPEN_LOOP_RATE})`,
      rangedParser('--rate', sharedRanges.rate, (v) => parsePositiveInteger('--rate', v)),
    )
    .option(
      '--client-threads <list>',
      'thread counts to measure the in-process engines at (default: 1,2)',
      rangedParser('--client-threads', sharedRanges.threads, (v) => parseConcurrencyList('--client-threads', v)),
    )
    .action((flags: SelfbenchFlags) => selfbenchCommand(flags));

  return program;
}
