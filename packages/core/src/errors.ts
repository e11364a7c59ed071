// Every error bench reports to a user is a BenchError with a stable code, built here and nowhere else.
// Input problems exit with 2 (as the CLI contract says); failures of the machine or a stack exit with 1.

export type BenchErrorCode =
  | 'BENCH_ERR_USAGE'
  | 'BENCH_ERR_CONFIG'
  | 'BENCH_ERR_THRESHOLDS'
  | 'BENCH_ERR_CELLS_FAILED'
  | 'BENCH_ERR_UNKNOWN_ENGINE'
  | 'BENCH_ERR_ENGINE_LOAD'
  | 'BENCH_ERR_ENGINE_UNAVAILABLE'
  | 'BENCH_ERR_ENGINE_UNSUPPORTED'
  | 'BENCH_ERR_GENERATOR_FAILED'
  | 'BENCH_ERR_PROCESS_FAILED'
  | 'BENCH_ERR_DOWNLOAD'
  | 'BENCH_ERR_COMPARE'
  | 'BENCH_ERR_REGRESSION'
  | 'BENCH_ERR_UNDECIDED'
  | 'BENCH_ERR_UNKNOWN_SCENARIO'
  | 'BENCH_ERR_UNKNOWN_TARGET'
  | 'BENCH_ERR_UNKNOWN_REPORTER'
  | 'BENCH_ERR_BAD_NUMBER'
  | 'BENCH_ERR_CONFLICTING_OPTIONS'
  | 'BENCH_ERR_NOTHING_TO_RUN'
  | 'BENCH_ERR_PORT_IN_USE'
  | 'BENCH_ERR_UNKNOWN_HOST'
  | 'BENCH_ERR_TARGET_UNAVAILABLE'
  | 'BENCH_ERR_TARGET_UNSUPPORTED'
  | 'BENCH_ERR_TARGET_START'
  | 'BENCH_ERR_APP_TARGET'
  | 'BENCH_ERR_TARGET_RESET'
  | 'BENCH_ERR_TARGET_DIED'
  | 'BENCH_ERR_SERVICE_UNAVAILABLE'
  | 'BENCH_ERR_SERVICE_START'
  | 'BENCH_ERR_VERIFY'
  | 'BENCH_ERR_REPORTER_LOAD'
  | 'BENCH_ERR_REPORTER_FAILED'
  | 'BENCH_ERR_RESULTS_FILE'
  | 'BENCH_ERR_HISTORY'
  | 'BENCH_ERR_JOURNAL'
  | 'BENCH_ERR_HISTORY_LOCK'
  | 'BENCH_ERR_OUTPUT_FILE'
  | 'BENCH_ERR_OPEN_FILES'
  | 'BENCH_ERR_SCENARIO_INVALID'
  | 'BENCH_ERR_SUITE_INVALID'
  | 'BENCH_ERR_HOST_UNREACHABLE'
  | 'BENCH_ERR_HOST_AUTH'
  | 'BENCH_ERR_HOST_NO_BENCH'
  | 'BENCH_ERR_HOST_VERSION'
  | 'BENCH_ERR_HOST_GONE'
  | 'BENCH_ERR_AGENT'
  | 'BENCH_ERR_INTERRUPTED';

export class BenchError extends Error {
  readonly code: BenchErrorCode;
  readonly exitCode: number;

  constructor(code: BenchErrorCode, message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BenchError';
    this.code = code;
    this.exitCode = options.exitCode ?? 2;
  }
}

export function isBenchError(error: unknown): error is BenchError {
  return error instanceof BenchError;
}

/** What a thrown value says: an Error's message, anything else as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const list = (names: readonly string[]) => names.join(', ');

// One factory per situation, so the wording (what is wrong, what to do) lives in one place.
export const errors = {
  usage: (message: string) => new BenchError('BENCH_ERR_USAGE', message),
  config: (file: string, detail: string, cause?: unknown) => new BenchError('BENCH_ERR_CONFIG', `config ${file}: ${detail}`, { cause }),
  thresholdsFailed: (failed: number, total: number, first: string) =>
    new BenchError('BENCH_ERR_THRESHOLDS', `${failed} of ${total} thresholds failed (first: ${first}); see the report`, { exitCode: 1 }),
  cellsFailed: (failed: number, total: number, first: string) =>
    new BenchError('BENCH_ERR_CELLS_FAILED', `${failed} of ${total} cells failed (first: ${first}); finished results are in the report`, {
      exitCode: 1,
    }),
  unknownEngine: (name: string, known: readonly string[]) =>
    new BenchError('BENCH_ERR_UNKNOWN_ENGINE', `unknown engine "${name}"; known engines: ${list(known)}`),
  engineLoad: (spec: string, detail: string, cause?: unknown) =>
    new BenchError('BENCH_ERR_ENGINE_LOAD', `failed to load engine "${spec}": ${detail}`, { cause }),
  engineUnavailable: (name: string, reason: string) =>
    new BenchError('BENCH_ERR_ENGINE_UNAVAILABLE', `engine "${name}" is not available: ${reason}`),
  engineUnsupported: (name: string, reason: string) =>
    new BenchError('BENCH_ERR_ENGINE_UNSUPPORTED', `engine "${name}" cannot do this: ${reason}`),
  // Exit code 1 and never fatal to a run: the cell whose load it was is recorded as failed, with this line, and the run goes on.
  generatorFailed: (message: string, cause?: unknown) => new BenchError('BENCH_ERR_GENERATOR_FAILED', message, { exitCode: 1, cause }),
  // A program bench runs for a step (a server not ready in time, javac, openssl, mariadb-install-db) failed; its
  // callers name the target or service it was for, so exit code 1: the stack failed, not the input.
  processFailed: (message: string) => new BenchError('BENCH_ERR_PROCESS_FAILED', message, { exitCode: 1 }),
  download: (url: string, detail: string) =>
    new BenchError(
      'BENCH_ERR_DOWNLOAD',
      `cannot fetch ${url}: ${detail}; check the network to the registry, or put the file in bench's cache by hand`,
      {
        exitCode: 1,
      },
    ),
  compareInput: (message: string) => new BenchError('BENCH_ERR_COMPARE', message),
  regression: (message: string) => new BenchError('BENCH_ERR_REGRESSION', message, { exitCode: 1 }),
  // Exit code 3: a --fail-if gate that could not decide (too few repeats or rounds) never passes silently;
  // the remedy is more data (--repeat, or --repeat auto with a higher --max-rounds / --max-time) or --allow-undecided.
  undecided: (count: number, first: string, remedy: string) =>
    new BenchError(
      'BENCH_ERR_UNDECIDED',
      `${count} --fail-if check(s) undecided, so the gate cannot pass (first: ${first}): ${remedy}; or pass --allow-undecided to let an undecided gate pass`,
      { exitCode: 3 },
    ),
  unknownScenario: (name: string, known: readonly string[]) =>
    new BenchError('BENCH_ERR_UNKNOWN_SCENARIO', `unknown scenario "${name}"; known scenarios: ${list(known)} (see \`bench list\`)`),
  unknownTarget: (name: string, known: readonly string[]) =>
    new BenchError('BENCH_ERR_UNKNOWN_TARGET', `unknown target "${name}"; known targets: ${list(known)} (see \`bench list\`)`),
  unknownReporter: (name: string, known: readonly string[], cause?: unknown) =>
    new BenchError(
      'BENCH_ERR_UNKNOWN_REPORTER',
      `unknown reporter "${name}": not one of ${list(known)}, and no module of that name or path could be found`,
      { cause },
    ),
  badNumber: (option: string, value: string, expected: string) =>
    new BenchError('BENCH_ERR_BAD_NUMBER', `${option} "${value}" is not valid: expected ${expected}`),
  conflictingOptions: (message: string) => new BenchError('BENCH_ERR_CONFLICTING_OPTIONS', message),
  nothingToRun: (message: string) => new BenchError('BENCH_ERR_NOTHING_TO_RUN', message),
  portInUse: (port: number) =>
    new BenchError(
      'BENCH_ERR_PORT_IN_USE',
      `port ${port} on 127.0.0.1 is already in use; pick another with --port or stop what is listening there`,
    ),
  unknownHost: (url: string, host: string, code: string) =>
    new BenchError(
      'BENCH_ERR_UNKNOWN_HOST',
      `${url}: the host name "${host}" does not resolve (${code}); check its spelling, or give the server's IP address`,
    ),
  targetUnavailable: (target: string, reason: string) =>
    new BenchError('BENCH_ERR_TARGET_UNAVAILABLE', `target "${target}" is not available: ${reason} (see \`bench doctor\`)`),
  targetUnsupported: (target: string, scenario: string, reason: string) =>
    new BenchError('BENCH_ERR_TARGET_UNSUPPORTED', `target "${target}" cannot serve scenario "${scenario}": ${reason}`),
  targetStart: (target: string, scenario: string, detail: string, cause?: unknown) =>
    new BenchError('BENCH_ERR_TARGET_START', `target "${target}" failed to start for "${scenario}": ${detail}`, { exitCode: 1, cause }),
  targetReset: (target: string, detail: string) =>
    new BenchError('BENCH_ERR_TARGET_RESET', `target "${target}" could not reset its state: ${detail}; check its reset in the config`),
  appTarget: (target: string, detail: string) =>
    new BenchError(
      'BENCH_ERR_APP_TARGET',
      `target "${target}" (your server) did not start: ${detail}; check its command, port and ready path in the config`,
    ),
  targetDied: (target: string, detail: string) =>
    new BenchError('BENCH_ERR_TARGET_DIED', `target "${target}" died during the run: ${detail}`, { exitCode: 1 }),
  serviceUnavailable: (service: string, binary: string, aptPackage: string, urlVariable: string) =>
    new BenchError(
      'BENCH_ERR_SERVICE_UNAVAILABLE',
      `${service} is needed but "${binary}" was not found: install it with \`apt-get install ${aptPackage}\` (or scripts/setup/setup-system.sh), or point ${urlVariable} at a running server`,
    ),
  serviceStart: (service: string, detail: string, cause?: unknown) =>
    new BenchError('BENCH_ERR_SERVICE_START', `${service} failed to start: ${detail}`, { exitCode: 1, cause }),
  verifyFailed: (failed: number, checked: number) =>
    new BenchError('BENCH_ERR_VERIFY', `${failed} of ${checked} target/scenario pairs answered wrongly (see the FAIL lines above)`, {
      exitCode: 1,
    }),
  reporterLoad: (spec: string, detail: string, cause?: unknown) =>
    new BenchError('BENCH_ERR_REPORTER_LOAD', `failed to load reporter "${spec}": ${detail}`, { cause }),
  reporterFailed: (name: string, hook: string, cause: unknown) =>
    new BenchError('BENCH_ERR_REPORTER_FAILED', `reporter "${name}" failed in ${hook}: ${messageOf(cause)}`, { cause }),
  resultsFile: (file: string, detail: string) =>
    new BenchError('BENCH_ERR_RESULTS_FILE', `results file "${file}" cannot be used: ${detail}`),
  journal: (file: string, detail: string) => new BenchError('BENCH_ERR_JOURNAL', `journal ${file}: ${detail}`),
  history: (file: string, detail: string) => new BenchError('BENCH_ERR_HISTORY', `history ${file}: ${detail}`),
  historyLock: (file: string, detail: string) => new BenchError('BENCH_ERR_HISTORY_LOCK', `history ${file}: ${detail}`, { exitCode: 1 }),
  outputFile: (file: string, detail: string) =>
    new BenchError(
      'BENCH_ERR_OUTPUT_FILE',
      `cannot write --out file "${file}": ${detail}; choose a path in an existing directory you can write to`,
    ),
  openFiles: (needed: number, soft: number, hard: number) =>
    new BenchError(
      'BENCH_ERR_OPEN_FILES',
      `this run needs about ${needed} open files but the limit is ${soft} (hard ${hard}); run \`ulimit -n ${needed}\` as root (or raise nofile in /etc/security/limits.conf), or lower -c`,
    ),
  scenarioInvalid: (file: string, detail: string) =>
    new BenchError('BENCH_ERR_SCENARIO_INVALID', `scenario manifest ${file} is invalid: ${detail}`),
  suiteInvalid: (where: string, detail: string) => new BenchError('BENCH_ERR_SUITE_INVALID', `${where} is invalid: ${detail}`),
  hostUnreachable: (host: string, detail: string) =>
    new BenchError(
      'BENCH_ERR_HOST_UNREACHABLE',
      `cannot reach ${host} over SSH: ${detail}; check the address and that sshd runs there (\`ssh ${host} true\` must work)`,
    ),
  hostAuth: (host: string, detail: string) =>
    new BenchError(
      'BENCH_ERR_HOST_AUTH',
      `${host} refused this machine over SSH (${detail}); bench logs in with a key and never asks for a password: add your public key to ~/.ssh/authorized_keys there, and its host key to your known_hosts (\`ssh ${host} true\` must work without a prompt)`,
    ),
  hostNoBench: (host: string, where: string) =>
    new BenchError(
      'BENCH_ERR_HOST_NO_BENCH',
      `no bench on ${host} ${where}: install the same bench there (\`npm install @bench/runner\` in a folder, named here with --remote-dir DIR), or put \`bench\` on its PATH`,
    ),
  hostVersion: (host: string, here: string, there: string) =>
    new BenchError(
      'BENCH_ERR_HOST_VERSION',
      `bench ${here} here, bench ${there} on ${host}: install bench ${here} there (\`npm install @bench/runner@${here}\`) so both ends measure alike`,
    ),
  hostGone: (host: string, detail: string) => new BenchError('BENCH_ERR_HOST_GONE', `${host} went away: ${detail}`, { exitCode: 1 }),
  agent: (host: string, detail: string) => new BenchError('BENCH_ERR_AGENT', `the bench agent on ${host}: ${detail}`, { exitCode: 1 }),
  interrupted: (signal: string) => new BenchError('BENCH_ERR_INTERRUPTED', `interrupted by ${signal}`, { exitCode: 130 }),
};

/** An error the bench agent met on another host, coded as it was there, its message naming the host. */
export const errorFromHost = (host: string, code: BenchErrorCode, message: string, exitCode: number): BenchError =>
  new BenchError(code, `on ${host}: ${message}`, { exitCode });
