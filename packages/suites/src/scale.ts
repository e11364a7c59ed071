import type { SuiteRunOptions } from './suite-schema.js';

/**
 * --scale F shrinks a suite for a quick run: requests and durations by F, and concurrency above 10
 * by F (never below 10: the articles' one user and four users keep their meaning).
 */
export function scaleConcurrency(concurrency: number, scale: number): number {
  return concurrency <= 10 || scale === 1 ? concurrency : Math.max(10, Math.round(concurrency * scale));
}

export function scaleOptions(options: SuiteRunOptions, scale: number): SuiteRunOptions {
  if (scale === 1) return options;
  const concurrency = options.concurrency ? [...new Set(options.concurrency.map((c) => scaleConcurrency(c, scale)))] : undefined;
  const maxConcurrency = Math.max(...(concurrency ?? [10]));
  return {
    ...options,
    ...(concurrency ? { concurrency } : {}),
    ...(options.requests !== undefined ? { requests: Math.max(maxConcurrency, Math.round(options.requests * scale)) } : {}),
    ...(options.durationSeconds !== undefined
      ? { durationSeconds: Math.max(0.5, Math.round(options.durationSeconds * scale * 10) / 10) }
      : {}),
    ...(options.warmupSeconds !== undefined ? { warmupSeconds: Math.round(options.warmupSeconds * Math.min(1, scale) * 10) / 10 } : {}),
  };
}
