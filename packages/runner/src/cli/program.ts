import { Command, Option } from 'commander';
import { TOOL_VERSION } from '../version.js';
import { parseConcurrencyList, parseNonNegativeSeconds, parsePositiveInteger, parsePositiveSeconds } from '../options.js';
import { runCommand } from './run-command.js';
import { listCommand } from './list-command.js';
import { serveCommand } from './serve-command.js';
import { reporterSpecCollector } from './reporter-specs.js';
import { verifyCommand } from './verify-command.js';
import { doctorCommand } from './doctor-command.js';
import { reportCommand } from './report-command.js';

// Every flag is declared once here; the command modules read the parsed values.
export function buildProgram(): Command {
  const program = new Command('bench')
    .description('Benchmark server-side stacks on fixed scenarios with real servers and verified answers')
    .version(TOOL_VERSION)
    .option('--debug', 'print stack traces of errors')
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({ writeErr: (text) => process.stderr.write(text.startsWith('error:') ? `bench: ${text}` : text) });

  const reporters = reporterSpecCollector();
  program
    .command('run')
    .description('start targets, verify their answers, drive them with autocannon, report')
    .argument('<scenario...>', 'scenarios to run (names or comma-separated lists; see `bench list`)')
    .option('-c, --concurrency <list>', 'concurrent connections, a comma-separated list (e.g. 3000,5000,7000)', (v) => parseConcurrencyList('-c', v))
    .option('-d, --duration <seconds>', 'measured run length per cell (default 10; 30s, 2m also accepted)', (v) => parsePositiveSeconds('-d', v))
    .option('-n, --requests <count>', 'measured run by request count instead of duration', (v) => parsePositiveInteger('-n', v))
    .option('-t, --targets <list>', 'targets to run (comma-separated); default: every available target for each scenario')
    .option('--no-keepalive', 'open a new connection for every request (ab without -k); keep-alive is on by default')
    .option('-w, --warmup <seconds>', 'warm-up before each measured run (0 to skip)', (v) => parseNonNegativeSeconds('--warmup', v), 1)
    .option('--repeat <n>', 'measure each cell n times, to see the run-to-run spread', (v) => parsePositiveInteger('--repeat', v))
    .option('--timeout <seconds>', 'seconds without an answer before a request counts as failed', (v) => parsePositiveSeconds('--timeout', v), 10)
    .option('--workers <n>', 'worker processes for cluster targets (default: one per core)', (v) => parsePositiveInteger('--workers', v))
    .option('--pool-size <n>', 'backend connections per process for pooled targets (default 10)', (v) => parsePositiveInteger('--pool-size', v))
    .option('--port <n>', 'port for the target (default: a free port)', (v) => parsePositiveInteger('--port', v))
    .addOption(new Option('-r, --reporter <name>', 'markdown (default), json, ab, or a module path / package name; may repeat').argParser(reporters.addReporter))
    .addOption(new Option('-o, --out <file>', 'write the preceding reporter\'s output to this file').argParser(reporters.addOut))
    .option('--reporter-option <key=value>', 'option passed to reporters; may repeat', (v, prev: string[] = []) => [...prev, v])
    .option('--debug', 'print stack traces of errors')
    .action((scenarios: string[], options) => runCommand(scenarios, options, reporters.specs()));

  program
    .command('list')
    .description('scenarios and targets, with availability on this machine')
    .action(() => listCommand());

  program
    .command('serve')
    .description('start one target serving one scenario, print its URL, stop on Ctrl-C')
    .argument('<target>', 'target name')
    .argument('<scenario>', 'scenario name')
    .option('--port <n>', 'port to listen on (default: a free port)', (v) => parsePositiveInteger('--port', v))
    .option('--workers <n>', 'worker processes for cluster targets', (v) => parsePositiveInteger('--workers', v))
    .option('--pool-size <n>', 'backend connections per process for pooled targets', (v) => parsePositiveInteger('--pool-size', v))
    .action((target: string, scenario: string, options) => serveCommand(target, scenario, options));

  program
    .command('doctor')
    .description('what is installed for every target and service, and the apt-get line for what is missing')
    .action(() => doctorCommand());

  program
    .command('verify')
    .description('start every target for every scenario and check status, headers and body; exit 1 on any failure')
    .argument('[scenario...]', 'scenarios to check (default: all)')
    .option('-t, --targets <list>', 'targets to check (comma-separated; default: all available)')
    .action((scenarios: string[], options) => verifyCommand(scenarios, options));

  const reportReporters = reporterSpecCollector();
  program
    .command('report')
    .description('render a results file (written by --reporter json --out) through any reporter')
    .argument('<file>', 'results file')
    .addOption(new Option('-r, --reporter <name>', 'markdown (default), json, ab, or a module; may repeat').argParser(reportReporters.addReporter))
    .addOption(new Option('-o, --out <file>', "write the preceding reporter's output to this file").argParser(reportReporters.addOut))
    .option('--reporter-option <key=value>', 'option passed to reporters; may repeat', (v, prev: string[] = []) => [...prev, v])
    .action((file: string, options) => reportCommand(file, options, reportReporters.specs()));

  return program;
}
