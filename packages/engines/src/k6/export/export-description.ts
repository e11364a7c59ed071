import { z } from '@bench/core';

/** bench-export.json: what an exported k6 run is, so `bench import` can make a bench result of its samples. */
export const exportDescriptionSchema = z.object({
  kind: z.literal('bench-k6-export'),
  bench: z.string(),
  k6: z.string(),
  createdAt: z.string(),
  scenario: z.object({ name: z.string(), method: z.string(), path: z.string(), documentLength: z.number().int() }),
  /** The server's base URL; the scenario's path is requested from it. */
  url: z.string(),
  generators: z.number().int().positive(),
  segments: z.array(z.string()),
  shape: z.object({
    connections: z.number().int().positive(),
    durationSeconds: z.number().positive().optional(),
    requests: z.number().int().positive().optional(),
    rate: z.number().positive().optional(),
    keepAlive: z.boolean(),
    timeoutSeconds: z.number().positive(),
  }),
  /** A workload's steps, in its order: the samples are read back step by step. */
  steps: z.array(z.string()).optional(),
  /** What the script says of each request it refuses (a captured value that would break it), by the sample's value less one. */
  refusals: z.array(z.string()).optional(),
  /** The environment variables the script reads its secrets from, and what each stands for (no value: secret.yaml and secrets.env hold them). */
  secrets: z.record(z.string(), z.string()).optional(),
  /** The file holding the data file's rows (beside the script, and a key of secret.yaml), when the workload reads one. */
  dataFile: z.string().optional(),
  /** Where the runners' sample files go, relative to the export's folder. */
  resultsDir: z.string(),
});

export type ExportDescription = z.infer<typeof exportDescriptionSchema>;

export const EXPORT_FILE = 'bench-export.json';
