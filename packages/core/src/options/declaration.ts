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
  /** A number's bounds (each number of a list's), on the command line and in a config file alike. */
  readonly range?: NumberRange;
}

/** The values a number option takes, both ends included. */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
}

/** "from 1 to 65535", as errors, --help and the docs give a range. */
export const rangeText = (range: NumberRange): string => `from ${range.min} to ${range.max}`;

/** Whether a value keeps to a range: a number, or each number of a list (other values, such as 'auto', are not numbers). */
export function withinRange(value: unknown, range: NumberRange): boolean {
  const numbers = Array.isArray(value) ? value : [value];
  return numbers.every((n) => typeof n !== 'number' || (n >= range.min && n <= range.max));
}

/** A command-line parser with a range applied: a value outside it is refused in one line naming the flag and the range. */
export function rangedParser<T>(
  flag: string,
  range: NumberRange,
  parse: (raw: string, previous?: T) => T,
): (raw: string, previous?: T) => T {
  return (raw, previous) => {
    const value = parse(raw, previous);
    if (!withinRange(value, range)) throw errors.badNumber(flag, raw, rangeText(range));
    return value;
  };
}

/** A declaration's command-line parser, its range applied. */
export function rangedParse(declaration: AnyOptionDeclaration): ((raw: string, previous?: unknown) => unknown) | undefined {
  const parse = declaration.parse as ((raw: string, previous?: unknown) => unknown) | undefined;
  return parse && declaration.range ? rangedParser(longFlag(declaration.flags), declaration.range, parse) : parse;
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
    Object.fromEntries(
      Object.entries(table).map(([key, declaration]) => {
        const schema = declaration.schema as z.ZodType;
        const { range } = declaration;
        const ranged = range ? schema.refine((value) => withinRange(value, range), `must be ${rangeText(range)}`) : schema;
        return [key, ranged.optional()];
      }),
    ),
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
  d: Omit<OptionDeclaration<number, 'maybe'>, 'presence' | 'schema' | 'parse' | 'range'> & { readonly max?: number },
): OptionDeclaration<number, 'maybe'> => {
  const { max, ...rest } = d;
  return maybe({
    ...rest,
    schema: z.number().int().positive(),
    parse: (raw) => parsePositiveInteger(longFlag(d.flags), raw),
    // bench's own engines bound every option; a plugin's is bounded where it says so
    ...(max !== undefined ? { range: { min: 1, max } } : {}),
  });
};

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
