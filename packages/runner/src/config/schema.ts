import { flowScenarioSchema, mixScenarioSchema, optionInputSchema, protocols, stepSchema, type ScenarioObjectInput, z } from '@bench/core';
import { runOptionDeclarations, runOptionInputSchema } from '../options/declarations.js';
import { thresholdsSchema } from '@bench/compare';

/**
 * A schema chosen by the value's shape, so an error speaks of the form the user meant
 * (`{ command }` or `{ url }`) instead of listing why every alternative failed.
 */
function byShape<T>(describe: string, pick: (value: unknown) => z.ZodType | undefined): z.ZodType<T> {
  return z.unknown().transform((value, ctx) => {
    const schema = pick(value);
    if (!schema) {
      ctx.addIssue({ code: 'custom', message: `expected ${describe}` });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data as T;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const targetName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a name of letters, digits, dots, dashes and underscores');

export const commandTargetSchema = z
  .object({
    name: targetName,
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    cwd: z.string().optional(),
    env: z.record(z.string(), z.string()).optional(),
    port: z.number().int().min(1).max(65535).optional(),
    ready: z
      .object({
        path: z.string().startsWith('/', 'a path starting with /').optional(),
        status: z.number().int().min(100).max(599).optional(),
        timeoutSeconds: z.number().positive().max(3600, 'at most an hour (3600)').optional(),
      })
      .strict()
      .optional(),
    /** The protocols the app serves (`--protocol`); over TLS `{cert}` and `{key}` in args and env name the run's certificate and key. */
    protocols: z.array(z.enum(protocols)).min(1).optional(),
    /** Before every cell and round: run a command, or restore files copied when the run started; with the target stopped (default) or running. */
    reset: z
      .object({
        command: z.string().min(1).optional(),
        files: z.array(z.string().min(1)).min(1).optional(),
        while: z.enum(['stopped', 'running']).optional(),
      })
      .strict()
      .refine((r) => (r.command === undefined) !== (r.files === undefined), 'either command or files')
      .optional(),
  })
  .strict();

export const urlTargetSchema = z.object({ name: targetName, url: z.string().url('an http:// URL') }).strict();

const targetEntry = byShape<string | z.infer<typeof commandTargetSchema> | z.infer<typeof urlTargetSchema>>(
  'a built-in target name, a module path, { name, command, ... } or { name, url }',
  (value) =>
    typeof value === 'string'
      ? z.string().min(1)
      : isObject(value)
        ? 'url' in value && !('command' in value)
          ? urlTargetSchema
          : commandTargetSchema
        : undefined,
);

const scenarioEntry = byShape<string | ScenarioObjectInput>(
  'a scenario folder path, a built-in scenario name, { name, path, method?, headers?, body?, expect? }, a flow { name, steps } or a mix { name, mix }',
  (value) =>
    typeof value === 'string'
      ? z.string().min(1)
      : isObject(value)
        ? 'steps' in value
          ? flowScenarioSchema
          : 'mix' in value
            ? mixScenarioSchema
            : stepSchema
        : undefined,
);

const reporterEntry = byShape<string | [string, Record<string, unknown>]>(
  'a reporter name, a module path, or [nameOrPath, options]',
  (value) =>
    typeof value === 'string'
      ? z.string().min(1)
      : Array.isArray(value)
        ? z.tuple([z.string().min(1), z.record(z.string(), z.unknown())])
        : undefined,
);

/**
 * `hosts`: where the stacks and services run, the same options as --server-host, --database-host, --ssh-config and
 * --remote-dir (their schemas are the option table's), named as a user of several machines reads them.
 */
export const hostsSchema = z
  .object({
    server: runOptionDeclarations.serverHost.schema.optional(),
    database: runOptionDeclarations.databaseHost.schema.optional(),
    sshConfig: runOptionDeclarations.sshConfig.schema.optional(),
    remoteDir: runOptionDeclarations.remoteDir.schema.optional(),
  })
  .strict();

/** The run options `hosts` stands for, by its keys. */
export const hostsOptionKeys = { server: 'serverHost', database: 'databaseHost', sshConfig: 'sshConfig', remoteDir: 'remoteDir' } as const;

const configWith = (defaults: typeof runOptionInputSchema) =>
  z
    .object({
      targets: z.array(targetEntry).optional(),
      scenarios: z.array(scenarioEntry).optional(),
      reporters: z.array(reporterEntry).optional(),
      /** Load engines beside bench's own, by module path or package name; `--engine` or `defaults.engine` picks one by name. */
      engines: z.array(z.string().min(1)).optional(),
      defaults: defaults.optional(),
      /** Other machines for the stacks and services (docs/hosts.md); a flag overrides each. */
      hosts: hostsSchema.optional(),
      thresholds: thresholdsSchema.optional(),
    })
    .strict();

/** bench.config.*: the default export, plain data. */
export const configSchema = configWith(runOptionInputSchema);

/**
 * The same, keeping in `defaults` the keys bench's own options do not name: the options of the config's engines,
 * checked once those engines are loaded (the project does it).
 */
export const configSchemaBeforeEngines = configWith(optionInputSchema(runOptionDeclarations, 'kept'));

export type CommandTargetConfig = z.infer<typeof commandTargetSchema>;
export type UrlTargetConfig = z.infer<typeof urlTargetSchema>;
export type TargetConfigEntry = string | CommandTargetConfig | UrlTargetConfig;
export type ScenarioConfigEntry = string | ScenarioObjectInput;
export type ReporterConfigEntry = string | [string, Record<string, unknown>];
export type BenchConfigOutput = z.infer<typeof configSchema>;
