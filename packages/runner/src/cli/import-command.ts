import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { errors, defaultRedaction } from '@bench/core';
import { importedDocument } from '../run/imported-document.js';
import { loadProject } from '../project/project.js';
import type { reporterSpecCollector } from '../reporters/reporter-spec.js';
import { loadReporters, parseReporterOptions } from '../reporters/load-reporters.js';
import { replayDocument } from '../reporters/results-file.js';

export const IMPORTED_RESULTS = 'bench-results.json';

/** `bench import DIR`: the samples of an exported run, merged into one result, written beside them and reported. */
export async function importCommand(
  dir: string,
  flags: { reporterOption?: string[]; config?: string },
  collector: ReturnType<typeof reporterSpecCollector>,
): Promise<void> {
  const reporters = await loadReporters(collector.specs(), parseReporterOptions(flags.reporterOption));
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const exporters = project.engines.filter((engine) => engine.exporter);
  let doc;
  for (const engine of exporters) {
    const run = await engine.exporter!.read(dir);
    if (run) {
      // an export written before its URL's user info was kept out, or a URL given by hand: no secret in the result
      doc = defaultRedaction.value(importedDocument(engine.name, run, ['bench', ...process.argv.slice(2)].join(' ')));
      break;
    }
  }
  if (!doc)
    throw errors.usage(
      `${dir} holds no exported run (of ${exporters.map((e) => e.name).join(', ')}): give the folder \`bench export\` wrote`,
    );
  const file = path.join(dir, IMPORTED_RESULTS);
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  process.stderr.write(
    `bench: ${doc.results[0]?.requests ?? 0} requests from ${doc.results[0]?.generators?.count ?? 0} generator(s), written to ${file}\n`,
  );
  await replayDocument(doc, reporters);
}
