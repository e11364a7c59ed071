import { z } from 'zod';
import { requestScenarioSchema } from '../request-scenario.js';
import { captureSchema } from './capture-schema.js';

const variableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name of letters, digits and underscores');

/** A data file whose rows feed `{{row.COLUMN}}`: taken in turn or at random, a new row per request or per connection. */
export const dataSchema = z
  .object({
    /** CSV with a header line, or JSON lines (.jsonl, .ndjson); relative to the config file. */
    file: z.string().min(1),
    order: z.enum(['sequential', 'random']).default('sequential'),
    per: z.enum(['request', 'connection']).default('request'),
  })
  .strict();

/** Mix weights: scenario name -> a positive number (shares, not necessarily summing to 100). */
export const weightsSchema = z
  .record(
    z.string().min(1),
    z.number({ error: 'a weight is a positive number' }).positive('a weight is a positive number').max(1e6, 'a weight is at most 1000000'),
  )
  .refine((weights) => Object.keys(weights).length > 0, 'at least one scenario with its weight');

/** Step fields beside a request spec's own. */
const stepFields = {
  /** Variables taken from the answer for later steps: name -> { json } | { header } | { regex }. */
  capture: z.record(variableName, captureSchema).optional(),
  /** Run at the start of each connection only (a login), not on every pass of the flow. */
  once: z.boolean().optional(),
  /** Milliseconds to wait before sending this step's request. */
  thinkMs: z.number().nonnegative().max(3_600_000, 'at most an hour (3600000)').optional(),
};

/** A request spec as a step of a flow (or a scenario alone, with data and captures). */
export const stepSchema = requestScenarioSchema.extend({ ...stepFields, data: dataSchema.optional() });

/** A request of a mix written in place, with its weight. */
export const weightedStepSchema = stepSchema.extend({
  weight: z
    .number({ error: 'a weight is a positive number' })
    .positive('a weight is a positive number')
    .max(1e6, 'a weight is at most 1000000'),
});

/**
 * A mix: the scenarios (request specs or flows of the config) it picks from by name -> weight, or requests written in
 * place, each with its weight.
 */
export const mixSchema = z.union([weightsSchema, z.array(weightedStepSchema).min(1, 'at least one request with its weight')]);

/** A step that picks one of several requests or flows by weight each time a connection reaches it. */
export const mixStepSchema = z.object({ mix: mixSchema }).strict();

/** A flow: steps each connection runs in order, then again. */
export const flowScenarioSchema = z
  .object({
    name: z.string().min(1),
    title: z.string().optional(),
    steps: z.array(z.union([mixStepSchema, stepSchema])).min(1, 'at least one step'),
    data: dataSchema.optional(),
  })
  .strict();

/** A mix: one load that sends several scenarios in these shares. */
export const mixScenarioSchema = z
  .object({
    name: z.string().min(1),
    title: z.string().optional(),
    mix: mixSchema,
    data: dataSchema.optional(),
  })
  .strict();

export type StepInput = z.input<typeof stepSchema>;
export type StepConfig = z.output<typeof stepSchema>;
export type FlowScenarioInput = z.input<typeof flowScenarioSchema>;
export type MixScenarioInput = z.input<typeof mixScenarioSchema>;
export type MixConfig = z.output<typeof mixSchema>;
export type DataConfig = z.output<typeof dataSchema>;
