import { tfbTestTypes, z } from '@bench/core';

// published.json: an article's figures as it printed them. A cell is a number, a list of numbers
// printed together ("131/268": two JDBC drivers), text as printed ("0/9/9049", "n/a"), or blank.
const cell = z.union([z.number(), z.array(z.number()), z.string(), z.null()]);

export const publishedTableSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    unit: z.string().optional(),
    rowHeader: z.string(),
    columns: z.array(z.string()).min(1),
    /** Several figures per cell (004's rps, 80%req, fail); a single figure per cell when absent. */
    metrics: z.array(z.object({ id: z.string(), label: z.string(), unit: z.string() })).optional(),
    rows: z.array(z.object({ label: z.string(), values: z.array(z.union([cell, z.record(z.string(), cell)])) })),
    notes: z.array(z.string()).default([]),
  })
  .strict();

export const publishedArticleSchema = z
  .object({
    article: z.string(),
    title: z.string(),
    publication: z.string(),
    seed: z.string(),
    setup: z.string(),
    tables: z.array(publishedTableSchema),
  })
  .strict();

/** What a row or column of a table stands for today: any of target, scenario, concurrency (merged, the column's over the row's). */
const cellSpec = z.object({ target: z.string().optional(), scenario: z.string().optional(), concurrency: z.number().int().optional() });

const columnSpec = cellSpec
  .extend({
    /** A result field for this column (ab-block tables); else the table's metric(s). */
    field: z.string().optional(),
    /** Only these rows are measured in this column (e.g. Servlet: the Java rows). */
    rows: z.array(z.string()).optional(),
    /** These rows are not measured in this column. */
    notRows: z.array(z.string()).optional(),
  })
  .strict();

export const suiteTableSchema = z
  .object({
    published: z.string(),
    /** The suite run whose results fill the table; any run when absent. */
    run: z.string().optional(),
    /** Article rows measured today: row label -> what stands for it. Rows not named are the article's only. */
    rows: z.record(z.string(), cellSpec.strict()).default({}),
    /** Today's stacks the article did not have, as rows of their own. */
    extraRows: z.array(cellSpec.extend({ label: z.string() }).strict()).default([]),
    columns: z.record(z.string(), columnSpec).default({}),
    scenario: z.string().optional(),
    concurrency: z.number().int().optional(),
    /** The result field of a single-figure table. */
    metric: z.string().optional(),
    /** Published metric id -> result field, for multi-figure cells. */
    metrics: z.record(z.string(), z.string()).optional(),
    /** The row every other row is divided by, for the article and for today. */
    reference: z.string().optional(),
    /** Print ab's block for every measured row (the articles that quoted ab's output). */
    abBlocks: z.boolean().default(false),
    /** A table kept as published only, with the reason. */
    publishedOnly: z.string().optional(),
    notes: z.array(z.string()).default([]),
  })
  .strict();

/**
 * A run's options by their results-file names (concurrency, durationSeconds, keepAlive, engine, ...): checked
 * against bench run's own option table when the suite runs, as a config's `defaults` are. The few this package
 * reads itself are typed here.
 */
const suiteRunOptionsSchema = z
  .object({
    concurrency: z.array(z.number().int().positive()).optional(),
    durationSeconds: z.number().positive().optional(),
    requests: z.number().int().positive().optional(),
    warmupSeconds: z.number().nonnegative().optional(),
    engine: z.string().optional(),
  })
  .catchall(z.unknown());

export const suiteRunSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    scenarios: z.array(z.string()).min(1),
    targets: z.array(z.string()).min(1),
    options: suiteRunOptionsSchema,
  })
  .strict();

const positive = z.number().int().positive();

/**
 * TechEmpower's load shape (its toolset's wrk scripts): a primer, a warm-up at the highest level, then each level for
 * the same time with a pause between; the concurrency types at each concurrency, the query types at each value of
 * their parameter at one concurrency, plaintext pipelined.
 */
export const techempowerSchema = z
  .object({
    engine: z.string(),
    primer: z.object({ seconds: z.number().positive(), concurrency: positive }).strict(),
    warmupSeconds: z.number().positive(),
    durationSeconds: z.number().positive(),
    /** Seconds between two levels (TFB's `sleep 2`). */
    pauseSeconds: z.number().nonnegative(),
    /** Seconds of rest after the primer and after the warm-up (TFB's `sleep 5`). */
    restSeconds: z.number().nonnegative(),
    /** The burst of TFB's verification, before a stack is measured. */
    burst: positive,
    tests: z.array(
      z
        .object({
          type: z.enum(tfbTestTypes),
          title: z.string(),
          scenario: z.string(),
          concurrency: z.array(positive).min(1),
          /** The query parameter's values, each a level at the (one) concurrency. */
          values: z.array(positive).optional(),
          /** Requests each connection keeps in flight at every level (plaintext: 16); the primer and warm-up send one at a time. */
          pipelining: positive.optional(),
        })
        .strict(),
    ),
    /** Each stack measured, and the TFB entry it corresponds to. */
    entries: z.record(z.string(), z.string()),
  })
  .strict();

/** suite.json: how bench reruns an article's experiment and fills its tables. */
export const suiteDefinitionSchema = z
  .object({
    name: z.string(),
    article: z.string(),
    title: z.string(),
    description: z.string(),
    /** server-load: ordinary bench runs; https-clients: article 002's client timing; techempower: TFB's test types in its load shape. */
    kind: z.enum(['server-load', 'https-clients', 'techempower']).default('server-load'),
    /** For techempower: the load shape, the types and the stacks. */
    techempower: techempowerSchema.optional(),
    runs: z.array(suiteRunSchema).default([]),
    /** How repeats of a cell combine: the article's mean (000: three runs, the mean) or bench's median. */
    aggregate: z.enum(['median', 'mean']).default('median'),
    tables: z.array(suiteTableSchema),
    /** For https-clients: n values and runs per n. */
    ns: z.array(z.number().int().positive()).optional(),
    measurements: z.number().int().positive().optional(),
    clients: z.record(z.string(), z.string()).optional(),
    notes: z.array(z.string()).default([]),
    /** Notes that hold only when the client and the servers share one machine: left out of a run on several hosts. */
    oneMachineNotes: z.array(z.string()).default([]),
  })
  .strict();

export type PublishedTable = z.infer<typeof publishedTableSchema>;
export type PublishedArticle = z.infer<typeof publishedArticleSchema>;
export type SuiteTable = z.infer<typeof suiteTableSchema>;
export type SuiteRun = z.infer<typeof suiteRunSchema>;
export type SuiteRunOptions = z.infer<typeof suiteRunOptionsSchema>;
export type SuiteDefinition = z.infer<typeof suiteDefinitionSchema>;
export type PublishedCell = z.infer<typeof cell>;
export type TechempowerShape = z.infer<typeof techempowerSchema>;
