import type { RunExporter } from '@bench/core';
import { writeK6Export } from './export-k6.js';
import { readK6Export } from './import-k6.js';

/** k6's runs for generators elsewhere: a script and k6-operator manifests written, their CSV samples read back. */
export const k6Exporter: RunExporter = {
  description: 'a k6 script and k6-operator TestRun manifests',
  write: writeK6Export,
  read: readK6Export,
};
