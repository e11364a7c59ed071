import { z } from 'zod';
import { cellProfileSchema } from './profile/profile-schema.js';

// The result model: one schema, from which the TypeScript types are inferred, that the JSON
// reporter writes and `bench report` reads back. Field names in the contract never change;
// new fields may be added (and the schema version raised when a meaning changes).
// Version 2 added each cell's per-second series and its whole latency histogram; version 1 files
// still read (they lack both, and reports say so).
export const SCHEMA_VERSION = 2;

export const latencySchema = z.object({
  mean: z.number(),
  stdev: z.number(),
  min: z.number(),
  p50: z.number(),
  p66: z.number(),
  p75: z.number(),
  p80: z.number(),
  p90: z.number(),
  p95: z.number(),
  p98: z.number(),
  p99: z.number(),
  p999: z.number(),
  max: z.number(),
});

export const failedBreakdownSchema = z.object({
  connect: z.number().int(),
  receive: z.number().int(),
  length: z.number().int(),
  exceptions: z.number().int(),
});

export const resourceSampleSchema = z.object({
  /** Mean CPU use over the measured run, in percent of one core (200 = two cores busy). */
  cpuPercent: z.number(),
  /** Largest resident set seen, summed over every process, in bytes. */
  rssBytes: z.number(),
  /** Most processes seen at once. */
  processes: z.number().int(),
  /** The busiest single thread over the run (one event loop, one worker), in percent of one core: a lone thread can bind a stack that has cores to spare. */
  busiestThreadPercent: z.number().optional(),
  /** Each process (its name and resident set, bytes) at the moment the total RSS peaked, as top would list them. */
  atPeak: z.array(z.object({ name: z.string(), rssBytes: z.number() })).optional(),
});

/** One second of a cell's run, as the engine and the resource sampler saw it. */
export const secondSchema = z.object({
  /** Whole seconds from the start of the measured run: 0 is its first second; warm-up seconds are negative. */
  t: z.number().int(),
  phase: z.enum(['warmup', 'measure']),
  /** How much of the second the run covered (the last one may be partial). */
  seconds: z.number(),
  /** Requests answered in this second (any status). */
  requests: z.number().int(),
  rps: z.number(),
  non2xx: z.number().int(),
  failures: failedBreakdownSchema.extend({ timeouts: z.number().int() }),
  /** This second's latency percentiles (ms); absent when the engine cannot time requests per second (wrk). */
  latency: z.object({ p50: z.number(), p90: z.number(), p99: z.number(), max: z.number() }).optional(),
  /** The target's processes: CPU in percent of one core, resident memory (bytes). */
  server: z.object({ cpuPercent: z.number(), rssBytes: z.number() }).optional(),
  /** The load generator's CPU in percent of one core. */
  client: z.object({ cpuPercent: z.number() }).optional(),
  /** Connections the engine opened in this second, when it times its connections (autocannon, the open loop, k6, wire). */
  newConnections: z.number().int().optional(),
  /** The TLS handshakes that ended in this second: their mean and their longest (ms). */
  handshake: z.object({ mean: z.number(), max: z.number() }).optional(),
});

/** A whole latency distribution in HdrHistogram's compressed base64 form (values in microseconds), as its ports and tools read it. */
export const encodedHistogramSchema = z.object({
  encoding: z.literal('hdr-compressed-base64'),
  unit: z.literal('us'),
  data: z.string(),
});

const driftSchema = z.object({
  /** Seconds in each window: a tenth of the measured run, at least 5. */
  windowSeconds: z.number().int(),
  /** Median of the first window and of the last. */
  first: z.number(),
  last: z.number(),
  driftPercent: z.number(),
  /** Two-sided p-value of the Mann-Whitney rank test between the two windows. */
  p: z.number(),
});

/** A cell's soak verdicts, read from its measured seconds once warm-up is over. */
export const soakSchema = z.object({
  /** Whole measured seconds the verdicts read. */
  seconds: z.number().int(),
  /** The server's RSS: least-squares slope (MB per minute) and its fit, first and last measured second. */
  rss: z.object({ slopeMBPerMin: z.number(), r2: z.number(), startBytes: z.number(), endBytes: z.number() }).optional(),
  /** Throughput (rps per second): first tenth of the run against the last. */
  rps: driftSchema.optional(),
  /** Each second's p99 (ms): first tenth against the last. */
  p99: driftSchema.optional(),
  /** The server's RSS a few seconds after the load stopped, and whether its growth over the run came back. */
  coolDown: z.object({ afterSeconds: z.number(), rssBytes: z.number(), returned: z.boolean() }).optional(),
});

const timingSummarySchema = z.object({ min: z.number(), mean: z.number(), sd: z.number(), median: z.number(), max: z.number() });

/** One step of a workload (a flow's step or a mix member) in a cell: its own counts, latency, histogram and seconds. */
export const stepResultSchema = z.object({
  name: z.string(),
  requests: z.number().int(),
  rps: z.number(),
  /** This step's part of the cell's answers, in percent (a mix member's realised share). */
  sharePercent: z.number(),
  latency: latencySchema,
  failed: z.number().int(),
  failedBreakdown: failedBreakdownSchema,
  non2xx: z.number().int(),
  timeouts: z.number().int(),
  statusCodes: z.record(z.string(), z.number().int()),
  errorSamples: z.array(z.string()).default([]),
  histogram: encodedHistogramSchema.optional(),
  /** The measured run's seconds, this step's answers only. */
  series: z.array(secondSchema).optional(),
});

export const resultSchema = z.object({
  scenario: z.string(),
  target: z.string(),
  concurrency: z.number().int(),
  /** Which measured run of this cell (1-based) when the run repeats cells (--repeat). */
  repeat: z.number().int().positive().default(1),
  /** 'ok' when the cell ran; 'failed' when the stack failed to start, verify or survive (see error). */
  status: z.enum(['ok', 'failed']),
  error: z.string().optional(),
  durationSeconds: z.number(),
  requests: z.number().int(),
  rps: z.number(),
  latency: latencySchema,
  failed: z.number().int(),
  failedBreakdown: failedBreakdownSchema,
  non2xx: z.number().int(),
  timeouts: z.number().int(),
  bytes: z.object({ total: z.number(), body: z.number() }),
  keepAlive: z.boolean(),
  /** What went on the wire (`--protocol`) when not plain HTTP/1.1: https, h2 (over TLS), h2c. */
  protocol: z.enum(['http1', 'https', 'h2', 'h2c']).optional(),
  /** Responses after which the server kept the connection open (ab's "Keep-Alive requests"). */
  keepAliveRequests: z.number().int().optional(),
  /** How the measured run was bounded: by time (-d) or by request count (-n). */
  bound: z.object({ kind: z.enum(['duration', 'requests']), value: z.number() }),
  warmupSeconds: z.number(),
  url: z.string(),
  server: z.object({ software: z.string(), hostname: z.string(), port: z.number().int() }),
  document: z.object({ path: z.string(), length: z.number().int() }),
  statusCodes: z.record(z.string(), z.number().int()),
  settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  resources: z
    .object({
      /** The target's processes. */
      server: resourceSampleSchema.optional(),
      /** The backing services (Redis, memcached, MariaDB) the run started. */
      services: resourceSampleSchema.optional(),
      /** The load generator (this process). */
      client: resourceSampleSchema.optional(),
    })
    .optional(),
  /** Backend counters read before and after the measured run (proof the backend was hit). */
  backend: z.record(z.string(), z.object({ counter: z.string(), before: z.number(), after: z.number(), delta: z.number() })).optional(),
  /** The load generator that measured the cell; absent in files from before engines were recorded, all autocannon's (engineOf). */
  engine: z.object({ name: z.string(), version: z.string(), chosenBecause: z.string().optional() }).optional(),
  /** The request's method, when not GET. */
  method: z.string().optional(),
  /** Open loop (--rate): the rate asked for and achieved, requests per second. */
  rate: z.object({ target: z.number(), achieved: z.number() }).optional(),
  /** Open loop: requests due within the period that were never sent, every connection busy (k6's dropped iterations). */
  droppedRequests: z.number().int().nonnegative().optional(),
  /** Open loop: latency from each request's actual send; `latency` counts from its intended send time. */
  latencyUncorrected: latencySchema.optional(),
  /** Open loop: how late the loop sent each answered request after it was due. */
  lateness: latencySchema.optional(),
  /** ab's Connection Times (ms), when the engine measures them. */
  connectionTimes: z
    .object({ connect: timingSummarySchema, processing: timingSummarySchema, waiting: timingSummarySchema, total: timingSummarySchema })
    .optional(),
  /**
   * The connections the engine opened and what each cost, when the engine times them (autocannon, the open loop, k6, wire): `latency`
   * is the TCP connect (ms), `handshake` the TLS handshake after it, `firstByte` the first byte of its first answer
   * counted from the connection's start; new connections per second and answers per connection over the measured run.
   */
  connects: z
    .object({
      count: z.number().int(),
      latency: latencySchema,
      handshake: latencySchema.optional(),
      firstByte: latencySchema.optional(),
      perSecond: z.number().optional(),
      requestsPerConnection: z.number().optional(),
    })
    .optional(),
  /** What opening a connection cost (h2load): connect (TCP, and TLS over TLS) and time to the first byte, ms over every connection. */
  connectionSetup: z
    .object({
      connect: z.object({ min: z.number(), mean: z.number(), max: z.number(), sd: z.number() }),
      firstByte: z.object({ min: z.number(), mean: z.number(), max: z.number(), sd: z.number() }),
    })
    .optional(),
  /** An in-process generator's event-loop delay during the measured run (ms). */
  eventLoopDelay: z.object({ mean: z.number(), p99: z.number(), max: z.number() }).optional(),
  /** A run split over several generators (--generators): how many, each one's k6 execution segment, and whether they shared a host. */
  generators: z.object({ count: z.number().int(), segments: z.array(z.string()), sharedHost: z.boolean() }).optional(),
  /** The suite run (bench suite) this cell belongs to. */
  suiteRun: z.string().optional(),
  /** How long the warm-up lasted and why it stopped: the stack was steady, the cap was reached, or a fixed --warmup (no steadiness asked). */
  warmup: z.object({ seconds: z.number(), reason: z.enum(['steady', 'cap', 'fixed']) }).optional(),
  /** Where the stack and its services ran, by host name, when not on the load generator's machine (--server-host). */
  hosts: z.object({ server: z.string(), services: z.string().optional() }).optional(),
  /** CPU lists the server and the generator were pinned to (--cpus). */
  cpus: z.object({ server: z.string().optional(), client: z.string().optional() }).optional(),
  /** One point per second of warm-up (negative t) and of the measured run (schema 2). */
  series: z.array(secondSchema).optional(),
  /** The measured run's whole latency histogram (schema 2): repeats and generators merge it exactly. */
  histogram: encodedHistogramSchema.optional(),
  /**
   * What bounded the cell's throughput: the server's CPU, the load generator (its CPU or its event loop), the machine
   * as a whole, stalls, connections (timeouts, failed connects), waiting (latency with the machine mostly idle), an
   * open loop's set rate, or nothing saturated on its own; with the one line every reporter prints.
   */
  limit: z
    .object({
      by: z.enum(['server', 'generator', 'machine', 'database', 'link', 'stalls', 'connections', 'waiting', 'rate', 'unclear']),
      line: z.string(),
    })
    .optional(),
  /** The run stopped during this cell (killed): its numbers cover the seconds its journal kept, up to this one. */
  interrupted: z.object({ atSecond: z.number() }).optional(),
  /** Soak verdicts: server memory slope, throughput and p99 drift, cool-down (cells with a series). */
  soak: soakSchema.optional(),
  /** The server's CPU profile over the measured seconds (--profile). */
  profile: cellProfileSchema.optional(),
  /** A workload's numbers step by step (flows) or member by member (mixes); the cell's own fields are their totals. */
  steps: z.array(stepResultSchema).optional(),
  /** A workload's shape in one line ("login once per connection, then get-item 80% / create-item 20%"). */
  workload: z.string().optional(),
  notes: z.array(z.string()).default([]),
  startedAt: z.string(),
  finishedAt: z.string(),
});

/** One threshold checked against one cell (or the medians of its repeats). */
export const thresholdResultSchema = z.object({
  /** The config key that named it: a scenario, scenario/target, a wildcard form, or "*". */
  selector: z.string(),
  scenario: z.string(),
  target: z.string(),
  concurrency: z.number().int(),
  /** Result field, e.g. rps, p99, failed. */
  field: z.string(),
  /** The expression, e.g. ">1000". */
  expression: z.string(),
  /** The measured value (undefined when the cell failed). */
  actual: z.number().optional(),
  ok: z.boolean(),
});

export const machineSchema = z.object({
  hostname: z.string(),
  platform: z.string(),
  release: z.string(),
  arch: z.string(),
  cpus: z.number().int(),
  cpuModel: z.string(),
  memoryBytes: z.number(),
  node: z.string(),
  /** Load generator and servers run on the same host and share its cores. */
  sharedHost: z.boolean(),
});

/** A machine of a run on several hosts: what a reader needs to know of it, and the bench it ran. */
export const hostInfoSchema = machineSchema.omit({ sharedHost: true }).extend({
  /** The bench version that ran there. */
  bench: z.string(),
});

/** The machines of a run on several hosts (--server-host, --database-host), and the link measured before it. */
export const runHostsSchema = z.object({
  client: hostInfoSchema,
  server: hostInfoSchema.extend({
    /** How the run names it: its SSH URL's host (cells' `hosts` and bound lines use it). */
    name: z.string(),
    /** The address its servers listened on: where the client reached it over SSH. */
    address: z.string(),
    /** The CPUs its stacks could run on: fewer than `cpus` when the agent was pinned to some. */
    cores: z.number().int().optional(),
  }),
  database: hostInfoSchema.extend({ name: z.string(), address: z.string(), cores: z.number().int().optional() }).optional(),
  /** What the link from the server host carried to the client in a transfer before the first cell, bytes a second. */
  link: z.object({ bytesPerSecond: z.number() }).optional(),
});

export const runDocumentSchema = z.object({
  /** 2 today; a version-1 document (no series, no histograms) still reads. */
  schemaVersion: z.union([z.literal(1), z.literal(SCHEMA_VERSION)]),
  tool: z.object({ name: z.literal('bench'), version: z.string() }),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  /** False while a run is in progress or after it was interrupted: results holds every finished cell. */
  complete: z.boolean(),
  machine: machineSchema,
  /** A run whose stacks ran on other hosts: each machine and what ran on it (each cell's `hosts` says where it ran). */
  hosts: runHostsSchema.optional(),
  command: z.string(),
  options: z.record(z.string(), z.unknown()).default({}),
  /** What was replaced by `[redacted]` in this document: `header Authorization`, `query token`, `user info`, `config defaults.headers.X-Key`. */
  redacted: z.array(z.string()).optional(),
  results: z.array(resultSchema),
  /** A run of `bench suite`: which article, at what scale (1 = the article's own load shape). */
  suite: z
    .object({
      name: z.string(),
      scale: z.number(),
      /** Targets of the suite not run here, with the reason (not installed, or no counterpart). */
      skipped: z.record(z.string(), z.string()).default({}),
      /** Each suite run's load shape: the article's request count, or the article's time (a run bounded by requests that today's stacks finish far sooner). */
      shapes: z
        .array(
          z.object({
            run: z.string(),
            kind: z.enum(['requests', 'time', 'duration']),
            requests: z.number().int().optional(),
            seconds: z.number().optional(),
            articleSeconds: z.number().optional(),
            line: z.string(),
          }),
        )
        .optional(),
      /** What the suite says under its tables of this run (TechEmpower's: levels this machine could not run, and why). */
      notes: z.array(z.string()).optional(),
      /**
       * Earlier runs of this suite on this machine at this scale (kept in bench's cache), whose spread the ratios'
       * intervals cover beside this run's rounds: each run's per-round ratios, by the ratio they stand for.
       */
      earlierRuns: z.array(z.object({ finishedAt: z.string(), ratios: z.record(z.string(), z.array(z.number())) })).optional(),
    })
    .optional(),
  /** Client-side timings (article 002): each client's whole-process times, n requests in a row. */
  clientTimings: z
    .array(z.object({ client: z.string(), version: z.string(), n: z.number().int(), seconds: z.array(z.number()) }))
    .optional(),
  /** Thresholds from the config file, each checked against every cell it selects. */
  thresholds: z.array(thresholdResultSchema).optional(),
  /** The rounds of the run (--repeat n or auto): how many completed, why the run stopped adding them, the seed of their order. */
  rounds: z
    .object({
      requested: z.union([z.number().int().positive(), z.literal('auto')]),
      completed: z.number().int(),
      /** fixed: --repeat n ran; decided: every comparison (or cell) had its answer; max-rounds, max-time: a cap was reached. */
      stoppedBecause: z.enum(['fixed', 'decided', 'max-rounds', 'max-time', 'interrupted', 'failed']),
      seed: z.number().int(),
      /** Where each comparison (or cell) stood after the last round. */
      lines: z.array(z.string()).default([]),
    })
    .optional(),
});

export type LatencyStats = z.infer<typeof latencySchema>;
export type FailedBreakdown = z.infer<typeof failedBreakdownSchema>;
export type ResourceSample = z.infer<typeof resourceSampleSchema>;
export type CellResult = z.infer<typeof resultSchema>;
export type MachineInfo = z.infer<typeof machineSchema>;
export type HostInfo = z.infer<typeof hostInfoSchema>;
export type RunHosts = z.infer<typeof runHostsSchema>;
export type RunDocument = z.infer<typeof runDocumentSchema>;
export type ThresholdResult = z.infer<typeof thresholdResultSchema>;
export type SecondPoint = z.infer<typeof secondSchema>;
export type StepResult = z.infer<typeof stepResultSchema>;
export type EncodedHistogram = z.infer<typeof encodedHistogramSchema>;
export type CellSoak = z.infer<typeof soakSchema>;

/** The engine that measured a cell: files written before bench recorded it hold autocannon's cells only. */
export const engineOf = (result: { readonly engine?: { readonly name: string } | undefined }): string =>
  result.engine?.name ?? 'autocannon';

export type CellLimit = NonNullable<CellResult['limit']>;
