export * from './declarations.js';
export * from './resolve.js';
export * from './commander-options.js';
export * from './command-options.js';
export * from './command-table.js';
