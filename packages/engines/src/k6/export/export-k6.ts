import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { workloadSteps, type ExportRequest } from '@bench/core';
import { k6Refusals } from '../k6-refusals.js';
import { k6WorkloadScript } from '../k6-workload-script.js';
import { K6_VERSION } from '../k6-binary.js';
import { k6OutputFlags } from '../k6-measurement.js';
import { k6Script } from '../k6-script.js';
import { executionSegments, segmentFlags } from '../segments.js';
import { EXPORT_FILE, type ExportDescription } from './export-description.js';
import { configMapManifest, kubeName, resultsClaimManifest, secretManifest, testRunManifest, type ManifestNames } from './testrun.js';
import { assertNoSecret, readSecretsFromEnvironment, takeSecrets } from './export-secrets.js';

/** A value as a POSIX shell reads it in an env file (`set -a; . ./secrets.env`). */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
import { exportReadme } from './export-readme.js';

const RESULTS_DIR = 'results';
/** The data file's rows, beside the script and in the Secret. */
const DATA_FILE = 'data.json';

/** Writes the script, the k6-operator manifests, a README and bench-export.json into `dir`; returns the files written. */
export function writeK6Export(e: ExportRequest): string[] {
  const generators = typeof e.options.generators === 'number' ? e.options.generators : 1;
  // every secret goes into a Kubernetes Secret (and secrets.env), read by the script from its environment
  const secrets = takeSecrets(e.scenario, e.baseUrl, e.secretNames);
  const scenario = secrets.scenario;
  const url = secrets.baseUrl + scenario.request.path;
  const workload = scenario.workload;
  // a data file's rows go where the secrets go (the Secret, and data.json beside secrets.env), never into the script
  const rows = workload?.data ? `${JSON.stringify(workload.data.rows)}\n` : undefined;
  const script = readSecretsFromEnvironment(
    workload
      ? k6WorkloadScript({ baseUrl: secrets.baseUrl, workload, shape: e.shape, ...(rows ? { rowsFromFile: DATA_FILE } : {}) })
      : k6Script({ url, request: scenario.request, expect: scenario.expect.body, shape: e.shape }),
    secrets,
  );
  const secretNames = Object.keys(secrets.values);
  const names: ManifestNames = { name: kubeName(`bench-${e.scenario.name}`), claim: kubeName(`bench-${e.scenario.name}-results`) };
  const description: ExportDescription = {
    kind: 'bench-k6-export',
    bench: e.toolVersion,
    k6: K6_VERSION,
    createdAt: new Date().toISOString(),
    scenario: {
      name: e.scenario.name,
      method: e.scenario.request.method,
      path: e.scenario.request.path,
      documentLength: e.scenario.expect.body.kind === 'exact' ? e.scenario.expect.body.length : 0,
    },
    url: secrets.baseUrl,
    generators,
    segments: executionSegments(generators),
    shape: {
      connections: e.shape.connections,
      ...(e.shape.durationSeconds !== undefined ? { durationSeconds: e.shape.durationSeconds } : {}),
      ...(e.shape.requests !== undefined ? { requests: e.shape.requests } : {}),
      ...(e.shape.rate !== undefined ? { rate: e.shape.rate } : {}),
      keepAlive: e.shape.keepAlive,
      timeoutSeconds: e.shape.timeoutSeconds,
    },
    ...(workload ? { steps: workloadSteps(workload).map((step) => step.name), refusals: k6Refusals(workload).map((r) => r.message) } : {}),
    ...(secretNames.length > 0 ? { secrets: { ...secrets.described } } : {}),
    ...(rows ? { dataFile: DATA_FILE } : {}),
    resultsDir: RESULTS_DIR,
  };
  const localCommands = Array.from({ length: generators }, (_, i) =>
    ['k6 run', ...segmentFlags(i, generators), ...k6OutputFlags(`${RESULTS_DIR}/generator-${i}.csv`), 'script.js'].join(' '),
  );
  const files: Record<string, string> = {
    'script.js': script,
    'testrun.yaml': stringify(testRunManifest(names, generators, secretNames, rows ? DATA_FILE : undefined)),
    'configmap.yaml': stringify(configMapManifest(names, script)),
    'results-pvc.yaml': stringify(resultsClaimManifest(names)),
    'README.md': exportReadme({ description, names, localCommands }),
    [EXPORT_FILE]: `${JSON.stringify(description, null, 2)}\n`,
  };
  assertNoSecret(files, [...Object.values(secrets.values), ...(e.secretValues ?? [])]);
  // the secrets' own files, readable by their owner only
  const secretFiles: Record<string, string> = {
    ...(secretNames.length > 0 || rows
      ? { 'secret.yaml': stringify(secretManifest(names, { ...secrets.values, ...(rows ? { [DATA_FILE]: rows } : {}) })) }
      : {}),
    ...(secretNames.length > 0
      ? {
          'secrets.env': Object.entries(secrets.values)
            .map(([name, value]) => `${name}=${shellQuote(value)}\n`)
            .join(''),
        }
      : {}),
    ...(rows ? { [DATA_FILE]: rows } : {}),
  };
  mkdirSync(path.join(e.dir, RESULTS_DIR), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(e.dir, name), text);
  for (const [name, text] of Object.entries(secretFiles)) {
    writeFileSync(path.join(e.dir, name), text, { mode: 0o600 });
    chmodSync(path.join(e.dir, name), 0o600);
  }
  return [...Object.keys(files), ...Object.keys(secretFiles)].map((name) => path.join(e.dir, name));
}
