import {
  always,
  CPU_LIST,
  DEFAULT_PROFILE_HZ,
  maybe,
  optionInputSchema,
  parseByteSize,
  parseConcurrencyList,
  DEFAULT_MAX_CHECKED_BODY,
  parseCpus,
  parseHeader,
  parseHttpUrl,
  parseMethod,
  parseNameList,
  parseNonNegativeSeconds,
  parsePositiveInteger,
  parsePositiveNumber,
  parsePositiveSeconds,
  parseStatus,
  parseProtocol,
  protocols,
  protocolWords,
  type Protocol,
  databaseChoices,
  parseDatabaseChoice,
  type DatabaseChoice,
  type OptionInput,
  type OptionValues,
  type NumberRange,
  z,
} from '@bench/core';
import { builtinEngineOptions, builtinEngines } from '@bench/engines';
import { engineChoiceText } from '../engine-choice/engine-candidates.js';
import { parseReceiverUrl } from '../outputs/receiver-url.js';
import { parseSshUrl } from '@bench/hosts';
import { parsePercent, parseTargetPair } from '@bench/compare';

const positiveInt = z.number().int().positive();
// Upper bounds: a connection takes one of a client address's 64,511 unprivileged local ports to one server port; a
// request's timeout and a warm-up, an hour; a measured run, a week (a soak); -p 1024 sizes a thread's record array in wire's
// native core at 56 MB (native-slices.ts: (256 x (2p + 8) + 16,384) records of 104 bytes; -p 10000, 534 MB).
const MAX_CONNECTIONS = 64_511;
const AN_HOUR = 3600;
const A_WEEK = 7 * 24 * 3600;

/** Ranges the other commands share with `bench run`'s options. */
export const sharedRanges = {
  connections: { min: 1, max: MAX_CONNECTIONS },
  seconds: { min: 0.001, max: A_WEEK },
  rounds: { min: 1, max: 1000 },
  rate: { min: 0.001, max: 1e7 },
  threads: { min: 1, max: 256 },
  percent: { min: 0, max: 100 },
} as const satisfies Record<string, NumberRange>;
/** The live page's port when none is given: k6's dashboard's. */
export const DEFAULT_DASHBOARD_PORT = 5665;
const seconds = z.number().positive();

// The defaults are the ones autocannon and wrk users know: 10 connections for 10 seconds.
const generalOptions = {
  concurrency: always({
    flags: '-c, --concurrency <list>',
    range: sharedRanges.connections,
    description: 'concurrent connections, a comma-separated list (e.g. 3000,5000,7000)',
    schema: z.array(positiveInt).min(1),
    parse: (raw) => parseConcurrencyList('-c', raw),
    default: [10],
  }),
  durationSeconds: maybe({
    flags: '-d, --duration <seconds>',
    range: sharedRanges.seconds,
    description: 'measured run length per cell (30s, 2m also accepted)',
    schema: seconds,
    parse: (raw) => parsePositiveSeconds('-d', raw),
    default: 10,
    excludes: 'requests',
  }),
  requests: maybe({
    flags: '-n, --requests <count>',
    range: { min: 1, max: 1e12 },
    description: 'measured run by request count instead of duration (as ab -n)',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('-n', raw),
    excludes: 'durationSeconds',
  }),
  protocol: always<Protocol>({
    flags: '--protocol <name>',
    description: `what goes on the wire: ${protocols.map((p) => `${p} (${protocolWords[p]})`).join(', ')}; over TLS the run makes its own CA`,
    schema: z.enum(protocols),
    parse: (raw) => parseProtocol(raw),
    default: 'http1',
  }),
  ca: maybe({
    flags: '--ca <file>',
    description: "with --url https://...: the certificate authority (PEM) to verify the server against; the system's roots otherwise",
    schema: z.string().min(1),
    parse: (raw) => raw,
  }),
  db: always<DatabaseChoice>({
    flags: '--db <name>',
    description:
      "the database TechEmpower's types read: mariadb (as TFB's MySQL) or postgres (PostgreSQL, which most of TFB's entries use)",
    schema: z.enum(databaseChoices),
    parse: (raw) => parseDatabaseChoice(raw),
    default: 'mariadb',
  }),
  tfbBurst: always({
    flags: '--tfb-burst <n>',
    range: { min: 1, max: MAX_CONNECTIONS },
    description:
      "TechEmpower scenarios: the requests verification sends at once, the database's query and row counters read around them (TFB's 512)",
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--tfb-burst', raw),
    default: 512,
  }),
  maxCheckedBody: always({
    flags: '--max-checked-body <size>',
    description:
      "the bytes of an answer's body a text or JSON check reads at most (4MiB, 512KiB or bytes); a longer body fails its check, the rest counted and dropped",
    schema: positiveInt,
    parse: (raw) => parseByteSize('--max-checked-body', raw),
    range: { min: 1024, max: 1024 ** 3 },
    default: DEFAULT_MAX_CHECKED_BODY,
    defaultText: '4MiB',
  }),
  keepAlive: always({
    flags: '--no-keepalive',
    description: 'open a new connection for every request (ab without -k); keep-alive is on by default',
    schema: z.boolean(),
    default: true,
  }),
  pipelining: maybe({
    flags: '-p, --pipelining <n>',
    range: { min: 1, max: 1024 },
    description:
      'requests each kept-alive connection keeps in flight (HTTP/1.1 pipelining, as wrk with a pipeline script and autocannon -p)',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--pipelining', raw),
    defaultText: '1',
  }),
  requestsPerConnection: maybe({
    flags: '--requests-per-connection <n>',
    range: { min: 1, max: 1e9 },
    description: 'with keep-alive, close each connection after n requests (a browser that closes on the nth)',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--requests-per-connection', raw),
    defaultText: 'no limit',
  }),
  warmupSeconds: always({
    flags: '-w, --warmup <seconds>',
    range: { min: 0, max: AN_HOUR },
    description: 'warm-up before each measured run (0 to skip)',
    schema: z.number().nonnegative(),
    parse: (raw) => parseNonNegativeSeconds('--warmup', raw),
    default: 1,
  }),
  warmupMaxSeconds: always({
    flags: '--warmup-max <seconds>',
    range: { min: 0, max: AN_HOUR },
    description:
      'warm-up goes on past --warmup until two seconds in a row agree within 5% on throughput (pools grown, JIT settled), at most this long; equal to --warmup for a fixed warm-up',
    schema: z.number().nonnegative(),
    parse: (raw) => parseNonNegativeSeconds('--warmup-max', raw),
    // long enough for the pools and JITs measured here to settle (Node in 7 s under load), short enough for a quick look
    default: 10,
  }),
  timeoutSeconds: always({
    flags: '--timeout <seconds>',
    range: { min: 0.001, max: AN_HOUR },
    description: 'seconds without an answer before a request counts as failed',
    schema: seconds,
    parse: (raw) => parsePositiveSeconds('--timeout', raw),
    default: 10,
  }),
  repeat: always<number | 'auto'>({
    flags: '--repeat <n|auto>',
    range: sharedRanges.rounds,
    description:
      'rounds: each measures every cell once, in a random order, on freshly started targets (samples for medians, spread and `bench compare`); auto (bench run) adds rounds until every --compare is decided',
    schema: z.union([positiveInt, z.literal('auto')]),
    parse: (raw) => (raw.trim() === 'auto' ? 'auto' : parsePositiveInteger('--repeat', raw)),
    default: 1,
  }),
  maxRounds: always({
    flags: '--max-rounds <n>',
    range: sharedRanges.rounds,
    description: 'with --repeat auto, stop after this many rounds even if undecided',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--max-rounds', raw),
    default: 20,
  }),
  maxTimeSeconds: maybe({
    flags: '--max-time <seconds>',
    range: sharedRanges.seconds,
    description: 'with --repeat auto, start no round that would end after this long (30s, 2m also accepted)',
    schema: seconds,
    parse: (raw) => parsePositiveSeconds('--max-time', raw),
    defaultText: 'no limit',
  }),
  compare: maybe({
    flags: '--compare <base:head>',
    description: 'two targets of the run to compare round by round, e.g. app-main:app-pr (decides when --repeat auto stops); may repeat',
    schema: z.array(z.string().regex(/^[^:\s]+:[^:\s]+$/, 'BASE:HEAD, e.g. app-main:app-pr')),
    parse: (raw, previous) => [
      ...(previous ?? []),
      ...raw.split(',').map((part) => {
        const pair = parseTargetPair('--compare', part);
        return `${pair.base}:${pair.head}`;
      }),
    ],
  }),
  noisePercent: always({
    flags: '--noise <percent>',
    range: sharedRanges.percent,
    description:
      'changes smaller than this are noise whatever the statistics say: bench compare calls them so, and --repeat auto decides a comparison when its interval is wholly inside or beyond it',
    schema: z.number().nonnegative(),
    parse: (raw) => parsePercent('--noise', raw),
    default: 5,
  }),
  seed: maybe({
    flags: '--seed <n>',
    range: { min: 1, max: 2 ** 32 - 1 },
    description: "seed of each round's random order (recorded in the results, so an order can be replayed)",
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--seed', raw),
    defaultText: 'a random one',
  }),
  engine: maybe({
    flags: '-e, --engine <name>',
    description: `load generator: ${builtinEngines.map((e) => e.name).join(', ')}, or a module path / package name (see \`bench list\`)`,
    schema: z.string().min(1),
    // the engines' own rules, written out in the table below (engineChoiceText)
  }),
  rate: maybe({
    flags: '-R, --rate <rps>',
    range: sharedRanges.rate,
    description: 'open loop: send this many requests per second on schedule; latency counts from each intended send time',
    schema: z.number().positive(),
    parse: (raw) => parsePositiveNumber('--rate', raw),
  }),
  cpus: maybe({
    flags: '--cpus <spec>',
    description: 'pin the server and the load generator to CPUs: server=LIST,client=LIST (taskset lists)',
    schema: z.object({ server: z.string().regex(CPU_LIST).optional(), client: z.string().regex(CPU_LIST).optional() }).strict(),
    parse: (raw) => parseCpus(raw),
  }),
  clientThreads: maybe({
    flags: '--client-threads <n>',
    range: sharedRanges.threads,
    description:
      "spread the in-process generator's connections over n worker threads, each with its own event loop; counts and histograms merge exactly",
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--client-threads', raw),
    defaultText: 'one per CPU of --cpus client=, else 1',
  }),
  workers: maybe({
    flags: '--workers <n>',
    range: { min: 1, max: 1024 },
    description: 'worker processes of multi-process targets (cluster, FPM, FastCGI)',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--workers', raw),
    defaultText: 'one per core; php-fcgid one per connection',
  }),
  poolSize: maybe({
    flags: '--pool-size <n>',
    range: { min: 1, max: 1000 },
    description: 'backend connections per process of the pooled targets',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--pool-size', raw),
    defaultText: '10',
  }),
  port: maybe({
    flags: '--port <n>',
    range: { min: 1, max: 65535 },
    description: 'port of the target',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--port', raw),
    defaultText: 'a free port',
  }),
  serverHost: maybe({
    flags: '--server-host <ssh-url>',
    description:
      'start the stacks, and the services they need, on this host over SSH: ssh://[user@]host[:port] (bench installed there, your ssh keys and config; docs/hosts.md)',
    schema: z.string().regex(/^ssh:\/\//, 'an ssh:// URL'),
    parse: (raw) => parseSshUrl('--server-host', raw).url,
  }),
  databaseHost: maybe({
    flags: '--database-host <ssh-url>',
    description:
      "with --server-host: start Redis, memcached, MariaDB and PostgreSQL on this third host, for the server host's stacks (TechEmpower's shape)",
    schema: z.string().regex(/^ssh:\/\//, 'an ssh:// URL'),
    parse: (raw) => parseSshUrl('--database-host', raw).url,
  }),
  sshConfig: maybe({
    flags: '--ssh-config <file>',
    description: 'the ssh config file for --server-host and --database-host (ssh -F); your ~/.ssh/config otherwise',
    schema: z.string().min(1),
  }),
  remoteDir: maybe({
    flags: '--remote-dir <dir>',
    description: 'the folder bench is installed in on those hosts (run as `npx --no-install bench` there); else `bench` on their PATH',
    schema: z.string().min(1),
  }),
  url: maybe({
    flags: '-u, --url <url>',
    description: 'a server already running at this URL: bench run drives it (nothing is started), bench export writes a run that will',
    schema: z.string().url(),
    parse: (raw) => parseHttpUrl('--url', raw),
  }),
  method: maybe({
    flags: '-m, --method <method>',
    description: 'request method, with --url',
    schema: z.string().regex(/^[A-Za-z]+$/),
    parse: (raw) => parseMethod(raw),
    defaultText: 'GET',
  }),
  headers: maybe({
    flags: '-H, --header <header>',
    description: 'request header "Name: value", with --url; may repeat',
    schema: z.record(z.string(), z.string()),
    parse: (raw, previous) => parseHeader(raw, previous),
  }),
  body: maybe({
    flags: '-b, --body <text>',
    description: 'request body, with --url',
    schema: z.string(),
    excludes: 'bodyFile',
  }),
  bodyFile: maybe({
    flags: '--body-file <file>',
    description: 'request body read from a file, with --url',
    schema: z.string(),
    excludes: 'body',
  }),
  expectStatus: maybe({
    flags: '--expect-status <code>',
    range: { min: 100, max: 599 },
    description: 'the status every answer must have, with --url',
    schema: z.number().int(),
    parse: (raw) => parseStatus('--expect-status', raw),
    defaultText: 'any 2xx',
  }),
  verbose: maybe({
    flags: '--verbose',
    description: 'progress in detail: each target skipped and why (one line says how many, without it)',
    schema: z.boolean(),
  }),
  journal: maybe({
    flags: '--journal <file>',
    description:
      'where the run journal goes (each second written as it is measured; `bench report` reads it): beside the first --out file, else in ~/.local/state/bench/journals',
    schema: z.string().min(1),
  }),
  dashboard: maybe({
    flags: '--dashboard',
    description: 'serve a live page of the run on 127.0.0.1 (the HTML report, redrawn every second; the final report at the end)',
    schema: z.boolean(),
  }),
  dashboardPort: always({
    flags: '--dashboard-port <n>',
    range: { min: 0, max: 65535 },
    description: "the live page's port (0: any free port)",
    schema: z.number().int(),
    parse: (raw) => (raw === '0' ? 0 : parsePositiveInteger('--dashboard-port', raw)),
    default: DEFAULT_DASHBOARD_PORT,
  }),
  profile: maybe({
    flags: '--profile',
    description:
      "record the server's CPU profile over each cell's measured seconds (V8's profiler for Node, the Flight Recorder for Java, perf for the rest): flame graphs in the HTML report, top functions in the others",
    schema: z.boolean(),
  }),
  profileHz: always({
    flags: '--profile-hz <n>',
    range: { min: 1, max: 10_000 },
    description: 'samples a second each profiler takes (with --profile)',
    schema: positiveInt,
    parse: (raw) => parsePositiveInteger('--profile-hz', raw),
    default: DEFAULT_PROFILE_HZ,
  }),
  prometheus: maybe({
    flags: '--prometheus <url>',
    description:
      'send every second to a Prometheus remote-write receiver as it is measured (k6 spelling: --out prometheus=URL), e.g. http://127.0.0.1:9090/api/v1/write',
    schema: z.string().url(),
    parse: (raw) => parseReceiverUrl('--prometheus', raw),
  }),
  otlp: maybe({
    flags: '--otlp <url>',
    description:
      'send every second to an OpenTelemetry (OTLP/HTTP, protobuf) receiver as it is measured (k6 spelling: --out otlp=URL), e.g. http://127.0.0.1:4318/v1/metrics',
    schema: z.string().url(),
    parse: (raw) => parseReceiverUrl('--otlp', raw, 'otlp'),
  }),
  outHeaders: maybe({
    flags: '--out-header <header>',
    description:
      'a header "Name: value" sent with every request to an output\'s receiver (--out prometheus=URL, --out otlp=URL), e.g. "Authorization: Bearer ..."; may repeat; its value is redacted',
    schema: z.record(z.string(), z.string()),
    parse: (raw, previous) => parseHeader(raw, previous, '--out-header'),
  }),
  redact: maybe({
    flags: '--redact <names>',
    description:
      'header and query-parameter names whose values are secret besides Authorization, Proxy-Authorization and Cookie (a comma list; may repeat): sent as they are, written as [redacted]',
    schema: z.array(z.string().min(1)),
    parse: (raw, previous) => [...new Set([...(previous ?? []), ...parseNameList([raw])])],
  }),
  history: maybe({
    flags: '--history [file]',
    description:
      'the history file (`bench history`): bench run appends the run to it when it finishes (bench-history.jsonl beside the config when none is named), the history commands read it',
    schema: z.union([z.boolean(), z.string().min(1)]),
  }),
};

/** Every option of `bench run`: the runner's own and each built-in engine's (k6's --generators), one table. */
export const runOptionDeclarations = {
  ...generalOptions,
  engine: { ...generalOptions.engine, defaultText: engineChoiceText(builtinEngines, { ...generalOptions, ...builtinEngineOptions }) },
  ...builtinEngineOptions,
};

export type RunOptionKey = keyof typeof runOptionDeclarations;

/** Every declared option's value after defaults: the 'always' ones present, the 'maybe' ones when given. */
export type RunOptionValues = OptionValues<typeof runOptionDeclarations>;

/** The same, every option optional: what a config file's `defaults`, flags or the API may give. */
export type RunOptionInput = OptionInput<typeof runOptionDeclarations>;

/** Everything that shapes a run, as results files record it under `options`. */
export type RunOptions = RunOptionValues & {
  /** Scenario names. */
  readonly scenarios: readonly string[];
  /** Target names; every available target that implements a scenario when absent. */
  readonly targets?: readonly string[];
};

export const runOptionKeys = Object.keys(runOptionDeclarations) as RunOptionKey[];

/** The schema of a config file's `defaults`: every declared option, by its results-file name, each optional. */
export const runOptionInputSchema = optionInputSchema(runOptionDeclarations);

/** The highest level of -c in a run: what ports, open files and stack pools are sized for. */
export const highestConcurrency = (options: { readonly concurrency: readonly number[] }): number => Math.max(...options.concurrency);
