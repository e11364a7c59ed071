import { errors } from '@bench/core';

/** Everything that shapes a run; the CLI builds it from flags, the API takes it as is. */
export interface RunOptions {
  readonly scenarios: readonly string[];
  /** Target names; all available targets that implement a scenario when absent. */
  readonly targets?: readonly string[];
  readonly concurrency: readonly number[];
  /** Measured run by time (seconds)... */
  readonly durationSeconds?: number;
  /** ...or by request count. Exactly one of the two; duration is the default. */
  readonly requests?: number;
  readonly keepAlive: boolean;
  readonly warmupSeconds: number;
  readonly timeoutSeconds: number;
  /** Measured runs per cell, to see run-to-run spread; 1 when absent. */
  readonly repeat?: number;
  readonly workers?: number;
  readonly poolSize?: number;
  readonly port?: number;
}

// The defaults autocannon and wrk users know: 10 connections for 10 seconds.
export const DEFAULTS = {
  concurrency: [10],
  durationSeconds: 10,
  warmupSeconds: 1,
  timeoutSeconds: 10,
} as const;

export function parsePositiveInteger(option: string, raw: string): number {
  const value = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value <= 0) {
    throw errors.badNumber(option, raw, 'a whole number greater than 0');
  }
  return value;
}

export function parseNonNegativeSeconds(option: string, raw: string): number {
  const value = parseSecondsValue(raw);
  if (value === undefined || value < 0) throw errors.badNumber(option, raw, 'seconds, 0 or more (e.g. 1, 0.5, 2s)');
  return value;
}

export function parsePositiveSeconds(option: string, raw: string): number {
  const value = parseSecondsValue(raw);
  if (value === undefined || value <= 0) throw errors.badNumber(option, raw, 'seconds greater than 0 (e.g. 10, 30s, 2m)');
  return value;
}

function parseSecondsValue(raw: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(raw);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] ?? 's';
  return unit === 'ms' ? amount / 1000 : unit === 'm' ? amount * 60 : amount;
}

/** "3000,5000,7000" -> [3000, 5000, 7000], each a positive integer, duplicates dropped. */
export function parseConcurrencyList(option: string, raw: string): number[] {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) throw errors.badNumber(option, raw, 'a comma-separated list of whole numbers greater than 0');
  return [...new Set(parts.map((part) => parsePositiveInteger(option, part)))];
}

/** Names given as several arguments and/or comma-separated lists. */
export function parseNameList(values: readonly string[]): string[] {
  return [...new Set(values.flatMap((value) => value.split(',')).map((v) => v.trim()).filter(Boolean))];
}

/** Checks the combination of options; numbers were checked as they were parsed. */
export function validateRunOptions(options: RunOptions): RunOptions {
  if (options.durationSeconds !== undefined && options.requests !== undefined) {
    throw errors.conflictingOptions('-d (duration) and -n (requests) cannot be used together: choose one way to bound the run');
  }
  if (options.scenarios.length === 0) throw errors.usage('name at least one scenario, e.g. `bench run hello` (see `bench list`)');
  if (options.concurrency.length === 0) throw errors.usage('-c needs at least one concurrency level');
  const maxConcurrency = Math.max(...options.concurrency);
  if (options.requests !== undefined && options.requests < maxConcurrency) {
    throw errors.conflictingOptions(
      `-n ${options.requests} is smaller than -c ${maxConcurrency}: every connection needs at least one request; raise -n or lower -c`,
    );
  }
  return options;
}
