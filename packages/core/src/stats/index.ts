// Statistics in one place: every median, spread, interval and test bench computes comes from here.
export * from './median.js';
export * from './spread.js';
export * from './bootstrap.js';
export * from './rank-test.js';
export * from './t-test.js';
export * from './e-divisive.js';
export * from './linear-fit.js';
export * from './noise-floor.js';
export * from './p-value.js';
