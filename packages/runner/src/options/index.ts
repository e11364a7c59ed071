export * from './declarations.js';
export * from './parse.js';
export * from './resolve.js';
export * from './commander-options.js';
