import { z } from 'zod';
import { errors } from '../errors.js';
import { parsePositiveInteger } from './parse.js';

/**
 * One option of `bench run`: its flags, its type (as a config file gives it), how the command line spells it, and
 * its default. The runner's options and each engine's own are declared this way; the CLI flags, the config file's
 * `defaults` schema and the types of a run's options are all derived from the declarations, so they cannot drift apart.
 */
export interface OptionDeclaration<T, Presence extends 'always' | 'maybe'> {
  /** Commander flags, e.g. '-c, --concurrency <list>', or '--no-keepalive' for a boolean that is on by default. */
  readonly flags: string;
  readonly description: string;
  /** The value's type, as the config file's `defaults` gives it. */
  readonly schema: z.ZodType<T>;
  /** From command-line text; `previous` is the value so far, for flags that may repeat. */
  readonly parse?: (raw: string, previous?: T) => T;
  /** 'always': every resolved run has a value (the default); 'maybe': absent unless given (or defaulted, see excludes). */
  readonly presence: Presence;
  readonly default?: T;
  /** How --help shows a default that depends on the machine or the target. */
  readonly defaultText?: string;
  /** The option this one cannot be combined with: a source that sets either replaces both from lower sources. */
  readonly excludes?: string;
  /** An engine's own option: what it makes the engine do, for the line that refuses it with another engine ("splits a run over generators"). */
  readonly summary?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table holds declarations of every value type
export type AnyOptionDeclaration = OptionDeclaration<any, 'always' | 'maybe'>;

/** Options by their results-file names (camelCase), e.g. { concurrency: ..., generators: ... }. */
export type OptionTable = Readonly<Record<string, AnyOptionDeclaration>>;

/** An option every run has a value of: its default unless a source gives one. */
export const always = <T>(d: Omit<OptionDeclaration<T, 'always'>, 'presence'> & { default: T }): OptionDeclaration<T, 'always'> => ({
  ...d,
  presence: 'always',
});

/** An option a run has only when a source gives it. */
export const maybe = <T>(d: Omit<OptionDeclaration<T, 'maybe'>, 'presence'>): OptionDeclaration<T, 'maybe'> => ({
  ...d,
  presence: 'maybe',
});

type ValueOf<D> = D extends OptionDeclaration<infer T, 'always' | 'maybe'> ? T : never;
type AlwaysKeys<D extends OptionTable> = { [K in keyof D]: D[K] extends { readonly presence: 'always' } ? K : never }[keyof D];

/** The values of a table's options after defaults: the 'always' ones present, the 'maybe' ones when given. */
export type OptionValues<D extends OptionTable> = { readonly [K in AlwaysKeys<D>]: ValueOf<D[K]> } & {
  readonly [K in Exclude<keyof D, AlwaysKeys<D>>]?: ValueOf<D[K]>;
};

/** The same, every option optional: what a config file's `defaults`, flags or the API may give. */
export type OptionInput<D extends OptionTable> = { readonly [K in keyof D]?: ValueOf<D[K]> };

/**
 * The schema of these options as a config file's `defaults` gives them: each by its name, each optional, and nothing
 * else; or, with `otherKeys: 'kept'`, other keys kept unchecked (options of engines not loaded yet).
 */
export function optionInputSchema<D extends OptionTable>(table: D, otherKeys: 'refused' | 'kept' = 'refused'): z.ZodType<OptionInput<D>> {
  const shape = z.object(
    Object.fromEntries(Object.entries(table).map(([key, declaration]) => [key, (declaration.schema as z.ZodType).optional()])),
  );
  return (otherKeys === 'refused' ? shape.strict() : shape.catchall(z.unknown())) as unknown as z.ZodType<OptionInput<D>>;
}

/** The long flag of a declaration ('--generators' of '--generators <n>'), as errors name it. */
export const longFlag = (flags: string): string => flags.split(/[ ,]+/).find((f) => f.startsWith('--')) ?? flags;

/**
 * A whole-number option above 0 (`--generators <n>`), absent unless given: what an engine's own option most often is,
 * declared without a schema library of the plugin's own.
 */
export const positiveIntegerOption = (
  d: Omit<OptionDeclaration<number, 'maybe'>, 'presence' | 'schema' | 'parse'>,
): OptionDeclaration<number, 'maybe'> =>
  maybe({ ...d, schema: z.number().int().positive(), parse: (raw) => parsePositiveInteger(longFlag(d.flags), raw) });

/** One of a few named values (`--core <native|js>`), absent unless given. */
export const choiceOption = <const T extends string>(
  choices: readonly [T, ...T[]],
  d: Omit<OptionDeclaration<T, 'maybe'>, 'presence' | 'schema' | 'parse'>,
): OptionDeclaration<T, 'maybe'> =>
  maybe({
    ...d,
    schema: z.enum(choices),
    parse: (raw) => {
      if ((choices as readonly string[]).includes(raw)) return raw as T;
      throw errors.usage(`${longFlag(d.flags)} ${JSON.stringify(raw)}: expected one of ${choices.join(', ')}`);
    },
  });
