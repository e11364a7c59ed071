export * from './test-types.js';
export * from './problems.js';
export * from './headers.js';
export * from './bodies.js';
export * from './fortunes.js';
export * from './counts.js';
