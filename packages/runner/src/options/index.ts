export * from './declarations.js';
export * from './resolve.js';
export * from './commander-options.js';
