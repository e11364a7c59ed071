import type { RunExporter } from '@bench/core';
import { readK6Export } from './import-k6.js';

/** k6's runs for generators elsewhere: a script and k6-operator manifests written, their CSV samples read back. */
export const k6Exporter: RunExporter = {
  description: 'a k6 script and k6-operator TestRun manifests',
  // the writer (and the YAML library its manifests need) loads only for `bench export`
  write: async (request) => (await import('./export-k6.js')).writeK6Export(request),
  read: readK6Export,
};
