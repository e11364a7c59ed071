#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ keeps the code it compiled for bench's ~540 modules on disk (os.tmpdir()/node-compile-cache) and reuses it
// at the next start; older Nodes compile every time
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./cli/main.js');
process.exitCode = await main(process.argv);
