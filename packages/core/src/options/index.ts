export * from './declaration.js';
export * from './parse.js';
