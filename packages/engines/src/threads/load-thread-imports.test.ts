import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A load thread starts in a fresh isolate: whatever its modules import, it loads. Of core it takes
// @bench/core/load-thread, which holds no schema; a value imported from @bench/core itself would load all of core
// and zod in every run's thread (0.12-0.14 s more CPU at each start).
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The modules of this package a file imports (not `import type`), followed to the end. */
function moduleGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms))
      visit(path.resolve(path.dirname(file), spec!.replace(/\.js$/, '.ts')));
  };
  visit(entry);
  return [...seen];
}

/** The names a module imports as values (not `type X`) from @bench/core itself. */
function valuesFromCore(text: string): string[] {
  return [...text.matchAll(/^import\s+\{([^}]*)\}\s+from\s+'@bench\/core';/gm)].flatMap(([, names]) =>
    names!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && !name.startsWith('type ')),
  );
}

const workers = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('-worker.ts'))
  .map((file) => path.join(src, file));

describe("the engines' load threads", () => {
  it('are the three engines that run on threads', () => {
    expect(workers.map((file) => path.basename(file)).sort()).toEqual(['autocannon-worker.ts', 'open-loop-worker.ts', 'wire-worker.ts']);
  });

  it.each(workers.map((file) => [path.relative(src, file), file]))(
    '%s imports values of core only from @bench/core/load-thread',
    (_name, worker) => {
      const offending = moduleGraph(worker).filter((file) => valuesFromCore(readFileSync(file, 'utf8')).length > 0);
      expect(offending.map((file) => path.relative(src, file))).toEqual([]);
    },
  );
});
