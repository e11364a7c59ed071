#!/usr/bin/env node
// The `bench` command. It is a committed file, not build output, so that `npm ci` can link it
// before the build (run by `prepare`) has produced dist/.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/bundle/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('bench: not built yet: run `npm run build` in the bench checkout (npm ci does it)\n');
  process.exit(2);
}
await import(cli.href);
