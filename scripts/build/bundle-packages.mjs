// Bundles each workspace package's entry modules (tsc's output in dist/) into dist/bundle/ with rolldown, one file per
// entry plus the chunks entries share, so that a process loads a few files of ours where it loaded some 350: `bench
// --help` went from 0.38 to 0.31 s of CPU on Node 24 (docs/architecture.md). Runs after `tsc -b` (npm run build).
//
// A package's exports name its entries: an export whose `import` is ./dist/bundle/NAME.js is built from tsc's
// ./dist/NAME.js. Everything a module imports by a bare name (node:*, other @bench packages, third-party packages)
// stays an import, so each package is loaded once and shared: a plugin importing @bench/core gets the same module as
// the CLI. zod is the exception: @bench/core inlines it and re-exports `z` to the other packages, one module where
// zod's own ESM is 99 files, half of those a CLI opened at start. The modules a package starts in a thread or
// process of their own (workers, the reaper, the Node target's server) stay unbundled in dist/, found through
// @bench/core's packageFile.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUNDLE = './dist/bundle/';

/** The `import` targets of a package.json's exports that lie in dist/bundle/. */
function bundledEntries(exports) {
  const targets = [];
  const visit = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith(BUNDLE)) targets.push(value.slice(BUNDLE.length));
    } else if (value && typeof value === 'object') {
      for (const [condition, inner] of Object.entries(value)) if (condition !== 'types') visit(inner);
    }
  };
  visit(exports);
  return [...new Set(targets)];
}

/** Whether a package's bundle carries a library in it (the library's own modules included) rather than importing it. */
const inlines = (pkg, id) => pkg === '@bench/core' && (id === 'zod' || id.startsWith('zod/'));

const workspaces = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces;
for (const workspace of workspaces) {
  const dir = path.join(root, workspace);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const entries = bundledEntries(manifest.exports);
  if (entries.length === 0) continue;
  const input = Object.fromEntries(entries.map((file) => [file.replace(/\.js$/, ''), path.join(dir, 'dist', file)]));
  const out = path.join(dir, 'dist', 'bundle');
  const build = await rolldown({
    input,
    platform: 'node',
    // only the package's own modules (relative imports) go in, and the libraries it inlines; every other bare name
    // stays an import
    external: (id, importer) => importer !== undefined && !id.startsWith('.') && !path.isAbsolute(id) && !inlines(manifest.name, id),
    logLevel: 'warn',
  });
  const { output } = await build.generate({
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunk-[hash].js',
    sourcemap: true,
  });
  await build.close();
  writeChanged(out, new Map(output.map((file) => [file.fileName, file.type === 'chunk' ? file.code : file.source])));
}

/**
 * Puts the files in the folder, writing only those that changed (each through a new file renamed over the old) and
 * then removing the ones no longer built: a build of unchanged sources touches nothing, so the CLIs a test file runs
 * while another file builds (app-repo.test.ts packs the checkout) never find a bundle missing or half written.
 */
function writeChanged(folder, files) {
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of files) {
    const file = path.join(folder, name);
    const bytes = Buffer.from(content);
    if (existsSync(file) && readFileSync(file).equals(bytes)) continue;
    writeFileSync(`${file}.${process.pid}.new`, bytes);
    renameSync(`${file}.${process.pid}.new`, file);
  }
  for (const name of readdirSync(folder)) if (!files.has(name)) rmSync(path.join(folder, name), { force: true });
}
