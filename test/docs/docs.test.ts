import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errors, isBenchError, resultSchema, runDocumentSchema } from '@bench/core';
import { repoRoot, runProcess } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';

// The docs a newcomer walks: every link and repository path they name exists, every code block
// marked `sh runnable` runs, and the error and result references cover what the code defines.
const docFiles = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const withoutFences = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, '');

// GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered.
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutFences(read(file)).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = (match[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative links of a doc: [text](target), outside code blocks. */
function linksOf(file: string): string[] {
  const links = [...withoutFences(read(file)).matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
  return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
}

// Things that look like repository paths: packages/..., test/..., scripts/... and so on, not part of a longer path or URL.
const REPO_PATH = /(?<![\w./~<>-])((?:packages|test|scripts|examples|docs)\/[\w./-]*)/g;
const pathsOf = (file: string) => [...new Set([...read(file).matchAll(REPO_PATH)].map((m) => (m[1] ?? '').replace(/[.:,]+$/, '')))];

const runnableBlocks = () =>
  docFiles.flatMap((file) => [...read(file).matchAll(/^```sh runnable\n([\s\S]*?)^```\s*$/gm)].map((m) => ({ file, script: m[1] ?? '' })));

describe('docs', () => {
  it('the README is at most 200 lines and links to every page in docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    const linked = new Set(linksOf('README.md').map((link) => link.split('#')[0]));
    for (const page of ['docs/README.md', 'docs/history.md', 'docs/comparing.md', 'docs/html-report.md', 'docs/errors.md'])
      expect(linked, page).toContain(page);
    for (const page of docFiles.filter((f) => f.startsWith('docs/'))) expect(linked, `README links to ${page}`).toContain(page);
    // and the index lists every page
    const indexed = new Set(linksOf('docs/README.md').map((link) => `docs/${link.split('#')[0] ?? ''}`));
    for (const page of docFiles.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md'))
      expect(indexed, `docs/README.md lists ${page}`).toContain(page);
  });

  it.each(docFiles)('every relative link in %s leads to a file (and heading) that exists', (file) => {
    const broken: string[] = [];
    for (const link of linksOf(file)) {
      const [target = '', anchor] = link.split('#');
      const resolved = target === '' ? path.join(repoRoot, file) : path.resolve(path.dirname(path.join(repoRoot, file)), target);
      if (!existsSync(resolved)) broken.push(`${link}: no ${path.relative(repoRoot, resolved)}`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(path.relative(repoRoot, resolved)).has(anchor))
        broken.push(`${link}: no heading #${anchor}`);
    }
    expect(broken).toEqual([]);
  });

  it.each(docFiles)('every repository path %s names exists', (file) => {
    const missing = pathsOf(file).filter((p) => !existsSync(path.join(repoRoot, p)));
    expect(missing).toEqual([]);
  });

  it('errors.md lists every BENCH_ERR_* code with the exit code its factory gives', () => {
    const documented = new Map<string, string>();
    for (const match of read('docs/errors.md').matchAll(/^\|\s*`(BENCH_ERR_[A-Z_]+)`\s*\|\s*([\d, ]+?)\s*\|/gm))
      documented.set(match[1] ?? '', match[2] ?? '');
    const declared = [...read('packages/core/src/errors.ts').matchAll(/'(BENCH_ERR_[A-Z_]+)'/g)].map((m) => m[1] ?? '');
    const exitCodes = new Map<string, Set<number>>();
    // every factory, called with placeholder arguments (arrays, so list-taking ones work too)
    for (const factory of Object.values(errors) as ((...args: unknown[]) => unknown)[]) {
      const error = factory(...Array.from({ length: Math.max(factory.length, 4) }, () => ['x']));
      if (!isBenchError(error)) throw new Error(`${factory.name} built no BenchError`);
      exitCodes.set(error.code, (exitCodes.get(error.code) ?? new Set()).add(error.exitCode));
    }
    expect([...documented.keys()].sort()).toEqual([...new Set(declared)].sort());
    for (const [code, codes] of exitCodes) expect(documented.get(code), code).toBe([...codes].sort((a, b) => a - b).join(', '));
  });

  it('results.md names every field of a results file and of a cell', () => {
    const doc = read('docs/results.md');
    const fields = [...Object.keys(runDocumentSchema.shape), ...Object.keys(resultSchema.shape)];
    expect(fields.filter((field) => !doc.includes(`\`${field}`))).toEqual([]);
  });

  it('the pages name every built-in plugin from its registry, every command and every run option', async () => {
    const { builtinTargets } = await import('@bench/targets');
    const { builtinReporters } = await import('@bench/reporters');
    const { builtinEngines, builtinScenarios, loadSuites, runOptionDeclarations } = await import('@bench/runner');
    const missing = (file: string, names: readonly string[], shape: (name: string) => string) =>
      names.filter((name) => !read(file).includes(shape(name))).map((name) => `${file}: ${name}`);
    const row = (name: string) => `| ${name} |`;
    const code = (name: string) => `\`${name}\``;
    const help = await runProcess(process.execPath, [path.join(repoRoot, 'packages', 'runner', 'bin', 'bench.js'), '--help']);
    const commands = [...((help.stdout.split(/^Commands:$/m)[1] ?? '').split(/\n\s*\n/)[0] ?? '').matchAll(/^ {2}([a-z][\w-]*)/gm)].map(
      (m) => m[1] ?? '',
    );
    expect(commands).toContain('run');
    // every flag of every command: a run's options, and the others' as the table gives each command its own
    const { commandOptions, commandTable } = await import('../../packages/runner/dist/options/command-table.js');
    const longFlags = [
      ...Object.values(runOptionDeclarations).map((d) => d.flags),
      ...Object.keys(commandTable).flatMap((name) => commandOptions(name as keyof typeof commandTable).map((o) => o.flags)),
    ].map((flags) => /--[\w-]+/.exec(flags)?.[0] ?? flags);
    expect([
      ...missing(
        'docs/targets.md',
        builtinTargets.map((t) => t.name),
        row,
      ),
      ...missing(
        'docs/engines.md',
        builtinEngines.map((e) => e.name),
        code,
      ),
      ...missing('docs/reporters.md', Object.keys(builtinReporters), code),
      ...missing(
        'docs/scenarios.md',
        builtinScenarios().map((s) => s.name),
        row,
      ),
      ...missing(
        'docs/suites.md',
        loadSuites().map((s) => s.definition.name),
        row,
      ),
      ...missing(
        'README.md',
        commands.filter((c) => c !== 'help'),
        (c) => `\`bench ${c}`,
      ),
      ...missing('docs/running.md', [...new Set(longFlags)], (flag) => `${flag}`),
    ]).toEqual([]);
  });

  it('the runnable examples are few, and each runs, exits 0 and leaves no process behind', async () => {
    const blocks = runnableBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.length).toBeLessThanOrEqual(8);
    for (const { file, script } of blocks) {
      let watch: ReturnType<typeof watchDescendants> | undefined;
      const run = await runProcess('bash', ['-euo', 'pipefail', '-c', script], {
        timeoutMs: 120_000,
        onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      watch?.stop();
      expect(run.code, `${file}: ${script}\n${run.stderr}`).toBe(0);
      expect(run.stdout.trim(), `${file}: ${script}`).not.toBe('');
      expect((await watch?.survivors()) ?? [], `${file}: ${script}`).toEqual([]);
    }
  }, 600_000);
});
