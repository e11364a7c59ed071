import { latencySchema, z } from '@bench/core';

// One line of a history file (JSON Lines): one measured cell of one run, with the series it belongs
// to, the commit it measured and the machine it ran on. Field names never change; a change of
// meaning raises the version, and a reader skips (and reports) lines of a version it does not know.
export const HISTORY_SCHEMA_VERSION = 1;

/** What makes two measurements comparable: points that differ in any of these are different series. */
export const seriesKeySchema = z.object({
  scenario: z.string(),
  target: z.string(),
  concurrency: z.number().int(),
  /** The load generator, e.g. autocannon. */
  engine: z.string(),
  /** The run options that change a measurement (keep-alive, bound, warm-up, rate, workers, ...), plain JSON. */
  options: z.record(z.string(), z.unknown()),
});

/** The machine, as far as it changes a measurement. */
export const machineFingerprintSchema = z.object({
  hostname: z.string(),
  cpuModel: z.string(),
  cores: z.number().int(),
  memoryBytes: z.number(),
});

export const gitInfoSchema = z.object({
  commit: z.string().optional(),
  branch: z.string().optional(),
  /** The commit's committer time, ISO 8601. */
  commitTime: z.string().optional(),
  /** A web address of the repository (https://...), when its remote is known: commits link to it. */
  repositoryUrl: z.string().optional(),
});

// the result model's own latency fields (ms), the ones a trend follows
export const historyMetricsSchema = latencySchema.pick({ mean: true, p50: true, p90: true, p99: true, p999: true, max: true }).extend({
  rps: z.number(),
  requests: z.number().int(),
  failed: z.number().int(),
  non2xx: z.number().int(),
});

export const historyEntrySchema = z.object({
  schemaVersion: z.literal(HISTORY_SCHEMA_VERSION),
  /** A short stable id of the series (key and machine): entries with the same id are one series. */
  series: z.string(),
  key: seriesKeySchema,
  machine: machineFingerprintSchema,
  git: gitInfoSchema,
  run: z.object({
    /** When the run started (ISO 8601): the cells of one run share it. */
    startedAt: z.string(),
    command: z.string(),
    /** Which measured run of the cell, when the run repeated cells. */
    repeat: z.number().int().positive(),
    toolVersion: z.string(),
  }),
  status: z.enum(['ok', 'failed']),
  metrics: historyMetricsSchema,
  /** The server's CPU profile of the cell (`history add --profiles`): folded stacks, deflated, base64, at `hz`. */
  profile: z.object({ hz: z.number(), samples: z.number().int(), stacks: z.string() }).optional(),
  /** When this line was appended. */
  addedAt: z.string(),
});

export type SeriesKey = z.infer<typeof seriesKeySchema>;
export type MachineFingerprint = z.infer<typeof machineFingerprintSchema>;
export type GitInfo = z.infer<typeof gitInfoSchema>;
export type HistoryMetrics = z.infer<typeof historyMetricsSchema>;
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type HistoryMetric = Exclude<keyof HistoryMetrics, 'requests' | 'failed' | 'non2xx'>;
