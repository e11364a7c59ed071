#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ keeps the code it compiled for the ~250 modules bench loads (its bundles, zod, Node's own) on disk
// (os.tmpdir()/node-compile-cache) and reuses it at the next start; older Nodes compile every time
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./cli/main.js');
process.exitCode = await main(process.argv);
