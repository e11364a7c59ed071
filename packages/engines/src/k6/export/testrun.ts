import { k6OutputFlags } from '../k6-measurement.js';

/** Kubernetes names: lower case, digits and dashes. */
export const kubeName = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50) || 'bench';

export const RESULTS_MOUNT = '/results';
/** Where a runner finds the data file's rows (from the Secret). */
export const DATA_MOUNT = '/bench-data';

export interface ManifestNames {
  /** The TestRun, and the ConfigMap holding the script. */
  readonly name: string;
  /** The PersistentVolumeClaim every runner writes its samples to. */
  readonly claim: string;
}

/**
 * k6-operator's TestRun (k6.io/v1alpha1): `parallelism` runners, each given its execution segment
 * by the operator, started paused and released together, each writing its raw samples to its own
 * CSV file (named after its pod, which Kubernetes substitutes for $(POD_NAME)) on a shared volume.
 */
export function testRunManifest(
  names: ManifestNames,
  parallelism: number,
  secretNames: readonly string[] = [],
  /** A key of the Secret holding the data file's rows, mounted as a file the script opens (BENCH_DATA_FILE). */
  dataKey?: string,
): Record<string, unknown> {
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: { name: names.name },
    spec: {
      parallelism,
      script: { configMap: { name: names.name, file: 'script.js' } },
      arguments: k6OutputFlags(`${RESULTS_MOUNT}/$(POD_NAME).csv`).join(' '),
      runner: {
        env: [
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          // the run's secrets, from the Secret secret.yaml makes: never in the script or its ConfigMap
          ...secretNames.map((name) => ({ name, valueFrom: { secretKeyRef: { name: names.name, key: name } } })),
          ...(dataKey ? [{ name: 'BENCH_DATA_FILE', value: `${DATA_MOUNT}/${dataKey}` }] : []),
        ],
        volumes: [
          { name: 'results', persistentVolumeClaim: { claimName: names.claim } },
          // the data file's rows, from the Secret: they may be credentials
          ...(dataKey ? [{ name: 'data', secret: { secretName: names.name, items: [{ key: dataKey, path: dataKey }] } }] : []),
        ],
        volumeMounts: [
          { name: 'results', mountPath: RESULTS_MOUNT },
          ...(dataKey ? [{ name: 'data', mountPath: DATA_MOUNT, readOnly: true }] : []),
        ],
      },
    },
  };
}

/** The run's secrets as a Kubernetes Secret, which only those who may read Secrets in the namespace can read. */
export function secretManifest(names: ManifestNames, values: Readonly<Record<string, string>>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: names.name }, type: 'Opaque', stringData: { ...values } };
}

export function configMapManifest(names: ManifestNames, script: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: names.name }, data: { 'script.js': script } };
}

/** ReadWriteMany, since the runners may land on different nodes. */
export function resultsClaimManifest(names: ManifestNames): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: names.claim },
    spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } },
  };
}
