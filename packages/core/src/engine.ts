import type { EncodedHistogram, LatencyStats, ResourceSample } from './result.js';
import type { ConnectTimes } from './measure/connection-costs.js';
import type { FailureCounts } from './measure/failures.js';
import type { EngineSecond, LiveSecond } from './measure/series.js';
import type { OptionTable } from './options/declaration.js';
import type { BodyExpectation, Scenario, ScenarioRequest } from './scenario.js';
import type { Support } from './target.js';
import type { Workload } from './workload/workload.js';
import type { Protocol } from './tls/protocol.js';
import type { ServerHabit } from './http.js';

/** How hard and how long to drive a server. */
export interface LoadShape {
  /** Connections (closed loop), or the cap on connections (open loop). */
  readonly connections: number;
  /** Run for this long... */
  readonly durationSeconds?: number;
  /** ...or until this many requests were answered. */
  readonly requests?: number;
  /** Open loop: requests per second sent on schedule, whatever the answers do; absent means closed loop. */
  readonly rate?: number;
  readonly keepAlive: boolean;
  /** With keep-alive: close each connection after this many requests (article 000's browser closed it on the fourth). */
  readonly requestsPerConnection?: number;
  /** Seconds without an answer before a request counts as timed out. */
  readonly timeoutSeconds: number;
  /** An in-process generator's worker threads, the connections spread over them; one when absent. */
  readonly threads?: number;
  /** With keep-alive: requests each connection keeps in flight (HTTP/1.1 pipelining, TechEmpower's plaintext: 16); one when absent. */
  readonly pipelining?: number;
}

export interface LoadProgress {
  readonly elapsedSeconds: number;
  readonly requests: number;
  /** The seconds that closed since the last progress, where the engine records them live (one thread's share each). */
  readonly seconds?: readonly LiveSecond[];
}

/** One measured (or warm-up) run of an engine against one URL. */
export interface LoadPlan {
  /** The full URL requested. */
  readonly url: string;
  readonly request: ScenarioRequest;
  /** A flow, a mix or generated values: what each connection sends instead of `request`, step by step (engines that declare `workloads`). */
  readonly workload?: Workload;
  /** What to speak (`--protocol`); HTTP/1.1 when absent. Over TLS, `caFile` is the only authority to trust. */
  readonly protocol?: Protocol;
  readonly caFile?: string;
  /** What every answer's body must be; engines check it as far as they can (at least its length). */
  readonly expect: BodyExpectation;
  /** The bytes of a body a text or JSON check reads at most (--max-checked-body); a longer body fails its check. */
  readonly maxCheckedBody?: number;
  readonly shape: LoadShape;
  /** The values of the engine's own options (those it declares in `options`), by name; absent ones were not given. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** CPUs the generator may run on (a taskset list such as "1" or "0-1"), when the run pins. */
  readonly cpus?: string;
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Aborting stops the load at once. */
  readonly signal?: AbortSignal;
}

/** A timing's range over a run, in milliseconds. */
export interface TimingRange {
  readonly min: number;
  readonly mean: number;
  readonly max: number;
  readonly sd: number;
}

/** Summary of one of ab's per-request timings, in milliseconds. */
export interface TimingSummary {
  readonly min: number;
  readonly mean: number;
  readonly sd: number;
  readonly median: number;
  readonly max: number;
}

/** ab's "Connection Times": connecting, processing, waiting for the first byte, total. */
export interface ConnectionTimes {
  readonly connect: TimingSummary;
  readonly processing: TimingSummary;
  readonly waiting: TimingSummary;
  readonly total: TimingSummary;
}

/** What an engine measured, in the same terms whatever the engine. */
export interface LoadMeasurement {
  readonly durationSeconds: number;
  readonly requests: number;
  /** Percentiles from bench's own HDR histogram (microsecond resolution), in milliseconds. */
  readonly latency: LatencyStats;
  readonly failures: FailureCounts;
  readonly non2xx: number;
  readonly statusCodes: Record<string, number>;
  readonly bytes: { readonly total: number; readonly body: number };
  /** Responses after which the connection stayed open (ab's "Keep-Alive requests"), when the engine can tell. */
  readonly keepAliveResponses?: number;
  /** A few distinct error messages seen, for the report. */
  readonly errorSamples: readonly string[];
  /** Open loop: latency from each request's actual send, beside `latency` (from its intended send time). */
  readonly latencyUncorrected?: LatencyStats;
  /** Open loop: how late each answered request went out after it was due (the loop's own lateness), in milliseconds. */
  readonly lateness?: LatencyStats;
  /** Open loop: the rate asked for and the rate achieved, requests per second. */
  readonly rate?: { readonly target: number; readonly achieved: number };
  /** Open loop: requests due within the period that were never sent, every connection busy (k6's dropped iterations). */
  readonly droppedRequests?: number;
  /** ab's connection times, when the engine measures them. */
  readonly connectionTimes?: ConnectionTimes;
  /** The generator's own CPU and memory, sampled by its pid. */
  readonly client?: ResourceSample;
  /** An in-process generator's event-loop delay during the run, in milliseconds. */
  readonly eventLoopDelay?: { readonly mean: number; readonly p99: number; readonly max: number };
  /** A run split over several generators: how many, each one's part, and whether they shared this host. */
  readonly generators?: GeneratorSplit;
  /** The run second by second (answers, failures, that second's latencies, the generator's CPU). */
  readonly seconds?: readonly EngineSecond[];
  /** When the load of `seconds` began: a process.hrtime.bigint() reading (the same clock in every thread), in nanoseconds. */
  readonly startedAtNs?: bigint;
  /** The whole run's latency histogram, encoded: repeats and generators merge it exactly. */
  readonly histogram?: EncodedHistogram;
  /** The connections the engine opened and what each cost (TCP connect, TLS handshake, first byte), when it times them. */
  readonly connects?: ConnectTimes;
  /** Which of its ways of running the engine ran this with ('native core' of wire's two): results name it after the version. */
  readonly engineVariant?: string;
  /** A workload's numbers step by step (or mix member by member), in the workload's order; the totals above cover them all. */
  readonly steps?: readonly StepMeasurement[];
  /** What opening a connection cost, over every connection of the run (h2load): TCP (and TLS) connect, and the first byte. */
  readonly connectionSetup?: { readonly connect: TimingRange; readonly firstByte: TimingRange };
  /** A workload run by an engine that cannot tell which step an answer belongs to (wrk): the requests each step sent. */
  readonly sentByStep?: Readonly<Record<string, number>>;
}

/** One step of a workload (a flow's step or a mix member) as measured: its counts, failures, histogram and seconds. */
export interface StepMeasurement {
  readonly name: string;
  readonly requests: number;
  readonly latency: LatencyStats;
  readonly histogram: EncodedHistogram;
  readonly failures: FailureCounts;
  readonly non2xx: number;
  readonly statusCodes: Record<string, number>;
  readonly errorSamples: readonly string[];
  readonly seconds?: readonly EngineSecond[];
}

export interface GeneratorSplit {
  readonly count: number;
  /** Each generator's share, as k6 execution segments ('0:1/2', '1/2:1'). */
  readonly segments: readonly string[];
  readonly sharedHost: boolean;
}

export interface EngineAvailability {
  readonly ok: boolean;
  readonly version?: string;
  /** Why not, in one line, with what to install. */
  readonly reason?: string;
  readonly aptPackages?: readonly string[];
}

/** The tool an engine drives, run bare as its users run it: `bench selfbench` measures what bench adds to it. */
export interface BareTool {
  /** The command line for a run of `seconds` at `connections` (over `threads` where the tool has them), as a user would type it. */
  command(url: string, connections: number, seconds: number, threads: number): { readonly command: string; readonly args: string[] };
  /** Requests per second and requests answered, as the tool printed them; undefined when it printed no result. */
  parse(stdout: string): { readonly rps: number; readonly requests: number } | undefined;
}

/** A run to write for generators elsewhere (`bench export ENGINE`). */
export interface ExportRequest {
  readonly scenario: Scenario;
  /** The server's base URL (e.g. http://10.0.0.2:8080); the scenario's path is requested from it. */
  readonly baseUrl: string;
  readonly shape: LoadShape;
  /** The values of the engine's own options. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The folder to write. */
  readonly dir: string;
  /** bench's version, recorded in the export. */
  readonly toolVersion: string;
  /** Header names secret beside Authorization, Proxy-Authorization and Cookie (--redact): their values stay out of the script. */
  readonly secretNames?: readonly string[];
  /** Every value the run knows secret: none may stand in a file the export writes but its secrets' own. */
  readonly secretValues?: readonly string[];
}

/** An exported run, read back from its generators' samples (`bench import DIR`). */
export interface ImportedRun {
  readonly scenario: { readonly name: string; readonly method: string; readonly path: string; readonly documentLength: number };
  /** The server's base URL the generators drove. */
  readonly url: string;
  readonly shape: LoadShape;
  /** The values of the engine's own options the run was exported with. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly engineVersion: string;
  readonly measurement: LoadMeasurement;
  /** When the samples begin and end (ISO 8601). */
  readonly startedAt: string;
  readonly finishedAt?: string;
  /** Lines for the report: where the samples came from. */
  readonly notes: readonly string[];
}

/** An engine's way to run elsewhere: files for generators bench does not start, and their samples read back. */
export interface RunExporter {
  /** One line for `bench export --help`: what the folder holds. */
  readonly description: string;
  /** Writes the run's files into request.dir; returns the files written. */
  write(request: ExportRequest): Promise<string[]>;
  /** The run exported into `dir`, from its generators' samples; undefined when `dir` holds no export of this engine. */
  read(dir: string): Promise<ImportedRun | undefined>;
}

/** What of a workload an engine runs; a workload that needs more is refused with the engine's name. */
export interface WorkloadSupport {
  /** `{{counter}}`, `{{randomInt}}`, data rows... in a request. */
  readonly templates: boolean;
  /** Steps in order with captures and once steps. */
  readonly flows: boolean;
  /** Several requests or flows in one load, by weight. */
  readonly mixes: boolean;
  readonly thinkTime: boolean;
}

/** A load generator bench can drive: in-process (autocannon) or an external program (wrk, ab, k6). */
/** The options that choose an engine (its chosenBy), as a list. */
export const choosers = (engine: Pick<LoadEngine, 'chosenBy'>): readonly string[] =>
  engine.chosenBy === undefined ? [] : typeof engine.chosenBy === 'string' ? [engine.chosenBy] : engine.chosenBy;

export interface LoadEngine {
  readonly name: string;
  readonly description: string;
  /**
   * Options of the engine's own (k6's --generators), merged into `bench run`'s option table: the CLI flags, the config's
   * `defaults` and the types derive from them. Their values reach run() and supports() as plan.options; given with
   * another engine, they are refused with the option's `summary`; given with none named, they choose this engine.
   */
  readonly options?: OptionTable;
  /**
   * The options of `bench run` whose presence makes this the engine of a run that names none and gives no engine's own
   * option (wire: 'pipelining' and 'rate'; the open loop: 'rate'); engines an option chooses are tried in the registry's
   * order, the first that can drive the run driving it.
   */
  readonly chosenBy?: string | readonly string[];
  /** The same tool run bare, for `bench selfbench`; absent for an engine that is bench's own (the open loop). */
  readonly bareTool?: BareTool;
  /** Writes a run for generators elsewhere and reads their samples back (`bench export NAME`, `bench import`). */
  readonly exporter?: RunExporter;
  /** Whether one run can be split over several generator processes (k6's --generators). */
  readonly splitsLoad?: boolean;
  /** Whether onProgress counts the answers so far and an abort still returns the measurement: a warm-up can then watch one run settle. */
  readonly countsProgress?: boolean;
  /** Whether it spreads its connections over worker threads of bench's process (--client-threads, shape.threads). */
  readonly clientThreads?: boolean;
  /** Whether it keeps several requests in flight on a connection (-p, shape.pipelining); refused for it otherwise. */
  readonly pipelines?: boolean;
  /**
   * The program names (the basename of argv[0]) of the processes run() launches, so leak checks can
   * find any that outlive a run; [] for an engine that runs inside bench's process. Every built-in engine sets it.
   */
  readonly processNames?: readonly string[];
  /** False for an engine that checks no server certificate over TLS (wrk, ab, h2load): its TLS cells say so. */
  readonly verifiesCertificates?: boolean;
  /** False for an engine that sees no body under load (h2load): its cells say only the verification request checked one. */
  readonly checksBodies?: boolean;
  /**
   * True for an engine whose `bytes.total` is every byte it read from the server, heads and framing too (each built-in
   * engine): bench then holds those bytes to the answers it counted (impossibleCounts). An engine that counts less
   * (bodies only, say) leaves it unset.
   */
  readonly countsWireBytes?: boolean;
  /**
   * True for an engine that takes the request's headers as arguments of its command line (ab, h2load), where any user
   * of the machine reads them in /proc: a run that sends a secret header (Authorization, a --redact name) is refused on it.
   */
  readonly headersOnCommandLine?: boolean;
  /**
   * What it counts wrongly when a server has one of these habits (docs/engines.md, the conformance table): the cells of
   * a server whose verification answer shows the habit say so, in these words.
   */
  readonly miscounts?: Readonly<Partial<Record<ServerHabit, string>>>;
  /** The protocols it speaks (`--protocol`), verifying a TLS server against the run's CA; HTTP/1.1 only when absent. */
  readonly protocols?: readonly Protocol[];
  /** What of a workload it runs (generated values, flows, mixes, think time); absent: one fixed request only. */
  readonly workloads?: WorkloadSupport;
  /** Finer than `workloads`: whether it can run this workload (wrk: no data row per connection); checked before anything starts. */
  supportsWorkload?(workload: Workload): Support;
  available(): Promise<EngineAvailability>;
  /** Whether this engine can drive this shape and request (with these values of its own options), and check answers as this expectation asks. */
  supports(shape: LoadShape, request: ScenarioRequest, expect: BodyExpectation, options?: Readonly<Record<string, unknown>>): Support;
  run(plan: LoadPlan): Promise<LoadMeasurement>;
}
