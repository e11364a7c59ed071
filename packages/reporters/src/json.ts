import { rename, writeFile } from 'node:fs/promises';
import type { ReporterFactory, RunDocument } from '@bench/core';

/** Writes text to a temp file, then renames it over the target: a reader never sees half a file. */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.tmp-${process.pid}`;
  await writeFile(temp, text);
  await rename(temp, file);
}

export async function writeJsonAtomically(file: string, doc: RunDocument): Promise<void> {
  await writeFileAtomically(file, `${JSON.stringify(doc, null, 2)}\n`);
}

/** The whole result model. With --out the file is rewritten after every cell, so nothing finished is lost. */
export const jsonReporter: ReporterFactory = (context) => {
  const save = (doc: RunDocument) => (context.outFile ? writeJsonAtomically(context.outFile, doc) : undefined);
  return {
    name: 'json',
    onRunStart: save,
    onResult: (_result, doc) => save(doc),
    async onRunEnd(doc) {
      if (context.outFile) await writeJsonAtomically(context.outFile, doc);
      else context.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    },
  };
};
