import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { importK6 } from '../k6-export/import-k6.js';
import type { reporterSpecCollector } from '../reporters/reporter-spec.js';
import { loadReporters, parseReporterOptions } from '../reporters/load-reporters.js';
import { replayDocument } from '../results-file.js';

export const IMPORTED_RESULTS = 'bench-results.json';

/** `bench import DIR`: the samples of an exported k6 run, merged into one result, written beside them and reported. */
export async function importCommand(
  dir: string,
  flags: { reporterOption?: string[] },
  collector: ReturnType<typeof reporterSpecCollector>,
): Promise<void> {
  const reporters = await loadReporters(collector.specs(), parseReporterOptions(flags.reporterOption));
  const doc = await importK6(dir, ['bench', ...process.argv.slice(2)].join(' '));
  const file = path.join(dir, IMPORTED_RESULTS);
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  process.stderr.write(
    `bench: ${doc.results[0]?.requests ?? 0} requests from ${doc.results[0]?.generators?.count ?? 0} generator(s), written to ${file}\n`,
  );
  await replayDocument(doc, reporters);
}
