import { Command } from 'commander';
import { type DatabaseChoice, type OptionTable, defaultRedaction, type Redaction } from '@bench/core';
import { builtinEngines } from '@bench/engines';
import { TOOL_VERSION } from '../version.js';
import { addCommandOptions, runOptionDeclarations, type CommandName, type GatheringParsers } from '../options/index.js';
import { reporterSpecCollector } from '../reporters/reporter-spec.js';
import { runCommand } from './run-command.js';
import { listCommand } from './list-command.js';
import { serveCommand } from './serve-command.js';
import { verifyCommand } from './verify-command.js';
import { doctorCommand } from './doctor-command.js';
import { agentCommand } from './agent-command.js';
import { type HostOptions } from '../options/host-options.js';
import { reportCommand } from './report-command.js';
import { compareCommand, type CompareFlags } from './compare-command.js';
import { noiseCommand } from './noise-command.js';
import { selfbenchCommand, type SelfbenchFlags } from './selfbench-command.js';
import { suiteCommand, type SuiteFlags } from './suite-command.js';
import { exportCommand } from './export-command.js';
import { importCommand } from './import-command.js';
import { addHistoryCommand } from './history-command.js';
import { builtinPluginNames, pluginsHelpText, type PluginNames } from './plugin-names.js';

/** --reporter and --out gathered in command-line order, so that each --out goes to the reporter before it. */
const gathering = (collector: ReturnType<typeof reporterSpecCollector>): { gather: GatheringParsers } => ({
  gather: { reporter: collector.addReporter, out: collector.addOut },
});

/**
 * The CLI; `plugins` (read from the registries when absent, and only when help is shown: reading every scenario's
 * and suite's manifest was a fifth of a command's start) fill the help's lists of names, and `optionTable` gives
 * `bench run` its flags (bench's own options, its engines' and, when a config adds engines, theirs).
 */
export function buildProgram(
  plugins?: PluginNames,
  optionTable: OptionTable = runOptionDeclarations,
  shown: Redaction = defaultRedaction,
): Command {
  const program = new Command('bench')
    .description('Benchmark server-side stacks, and your own server, on fixed scenarios with real servers and verified answers')
    .version(TOOL_VERSION)
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
    .addHelpText('afterAll', () => pluginsHelpText(plugins ?? builtinPluginNames()));
  // Every command's flags come from one table (options/command-table.ts), each flag declared once: a run's options in
  // options/declarations.ts, the others in options/command-options.ts. No command here declares a flag of its own.
  addCommandOptions(program, 'bench');
  const subcommand = (name: Exclude<CommandName, 'bench' | `history${string}`>, how?: Parameters<typeof addCommandOptions>[2]) =>
    addCommandOptions(program.command(name), name, how);

  const runReporters = reporterSpecCollector();
  subcommand('run', { runTable: optionTable, ...gathering(runReporters) })
    .description('start targets, verify their answers, drive them with a load engine, report')
    .argument('[scenario...]', "scenarios to run (names or comma-separated lists; default: the config's)")
    .action((scenarios: string[], _flags, command: Command) => runCommand(scenarios, command, runReporters));

  subcommand('list')
    .description('scenarios, targets and engines, with availability on this machine')
    .action((flags: { config?: string; all?: boolean }) => listCommand(flags));

  subcommand('serve')
    .description('start one target serving one scenario, print its URL, stop on Ctrl-C')
    .argument('<target>', 'target name')
    .argument('<scenario>', 'scenario name')
    .action((target: string, scenario: string, _flags, command: Command) => serveCommand(target, scenario, command));

  subcommand('doctor')
    .description(
      'what is installed for every target, engine and service, and the apt-get line for what is missing (--server-host: on that host)',
    )
    .action((flags: { config?: string } & HostOptions) => doctorCommand(flags));

  subcommand('agent')
    .description(
      'what a run on another machine starts here over SSH (--server-host): JSON lines on stdin and stdout; stops all it started when its input closes',
    )
    .action((flags: { config?: string }) => agentCommand(flags));

  subcommand('verify')
    .description(
      "start every target once for the scenarios it serves and check status, headers and body (TechEmpower's rules for tfb-*); exit 1 on any failure",
    )
    .argument('[scenario...]', "scenarios to check (default: the config's, else all)")
    .action(
      (
        scenarios: string[],
        flags: { targets?: string; config?: string; jobs: number; tfbBurst?: number; db?: DatabaseChoice } & HostOptions,
      ) => verifyCommand(scenarios, flags),
    );

  const reportReporters = reporterSpecCollector();
  subcommand('report', gathering(reportReporters))
    .description('render a results file (written by --reporter json --out) through any reporter')
    .argument('<file>', 'results file')
    .action((file: string, flags: { reporterOption?: string[] }) => reportCommand(file, flags, reportReporters));

  const suiteReporters = reporterSpecCollector();
  subcommand('suite', gathering(suiteReporters))
    .description("rerun an article's experiment and print its tables, published figures beside today's (`bench suite list` shows them)")
    .argument('<name>', "suite name (`bench suite list` names them, as the help's last lines do), or list")
    .action((name: string, flags: SuiteFlags) => suiteCommand(name, flags, suiteReporters));

  const exporters = builtinEngines.filter((e) => e.exporter);
  subcommand('export')
    .description(
      `write a run for generators elsewhere (\`bench import\` reads their samples back): ${exporters
        .map((e) => `${e.name}, ${e.exporter!.description}`)
        .join('; ')}`,
    )
    .argument('<engine>', exporters.map((e) => e.name).join(' | '))
    .argument('<scenario>', 'scenario name')
    .action((format: string, scenario: string, _flags, command: Command) => exportCommand(format, scenario, command));

  const importReporters = reporterSpecCollector();
  subcommand('import', gathering(importReporters))
    .description('merge the sample files of an exported run into one bench result (written to DIR/bench-results.json) and report it')
    .argument('<dir>', 'the folder `bench export` wrote')
    .action((dir: string, flags: { reporterOption?: string[]; config?: string }) => importCommand(dir, flags, importReporters));

  subcommand('compare')
    .description(
      'compare two results files cell by cell, or two targets of one run round by round (--base, --head): medians, change in %, and a verdict',
    )
    .argument('<base>', 'results file of the baseline (or of the whole run, with --base and --head)')
    .argument('[head]', 'results file of the change')
    .action((base: string, head: string | undefined, flags: CompareFlags) => compareCommand(base, head, flags));

  addHistoryCommand(program);

  subcommand('noise')
    .description(
      "this machine's run-to-run spread: A/A rounds of one target, the noise threshold they support, and the rounds a 2/5/10% change needs",
    )
    .argument('<scenario>', 'scenario name')
    .action((scenario: string, _flags, command: Command) => noiseCommand(scenario, command));

  subcommand('selfbench')
    .description("what bench costs over each bare load tool, and each engine's ceiling on this machine (a benchmark, not a test)")
    .action((flags: SelfbenchFlags) => selfbenchCommand(flags));

  return program;
}
