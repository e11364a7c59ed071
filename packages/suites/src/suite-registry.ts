import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { errors, packageFile } from '@bench/core';
import { publishedArticleSchema, suiteDefinitionSchema, type PublishedArticle, type SuiteDefinition } from './suite-schema.js';

export interface Suite {
  readonly definition: SuiteDefinition;
  readonly published: PublishedArticle;
}

/** The folder holding one folder per suite: this package's own (its code sits one folder down, in src/ or dist/). */
export function suitesDir(): string {
  return packageFile(import.meta.url);
}

function readJson<T>(file: string, parse: (value: unknown) => T): T {
  try {
    return parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw errors.scenarioInvalid(file, error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
  }
}

/** Every suite, ordered by article. */
export function loadSuites(dir: string = suitesDir()): Suite[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'suite.json')))
    .map((entry) => ({
      definition: readJson(path.join(dir, entry.name, 'suite.json'), (v) => suiteDefinitionSchema.parse(v)),
      published: readJson(path.join(dir, entry.name, 'published.json'), (v) => publishedArticleSchema.parse(v)),
    }))
    .sort((a, b) => a.definition.article.localeCompare(b.definition.article));
}

export function findSuite(name: string, suites: readonly Suite[] = loadSuites()): Suite {
  const suite = suites.find((s) => s.definition.name === name);
  if (!suite)
    throw errors.usage(
      `unknown suite "${name}"; known suites: ${suites.map((s) => s.definition.name).join(', ')} (see \`bench suite list\`)`,
    );
  return suite;
}
