import { errors, isBenchError } from './errors.js';
import type { Reporter } from './reporter.js';
import type { CellResult, RunDocument } from './result.js';

type Hook = 'onRunStart' | 'onResult' | 'onRunEnd';

/** Calls one hook on every reporter in turn, awaiting each; a throw becomes a BENCH_ERR_REPORTER_FAILED. */
export async function callReporters(reporters: readonly Reporter[], hook: Hook, doc: RunDocument, result?: CellResult): Promise<void> {
  for (const [index, reporter] of reporters.entries()) {
    try {
      if (hook === 'onResult') await reporter.onResult?.(result as CellResult, doc);
      else await reporter[hook]?.(doc);
    } catch (error) {
      if (isBenchError(error)) throw error;
      throw errors.reporterFailed(reporter.name ?? `#${index + 1}`, hook, error);
    }
  }
}

/** onRunEnd for every reporter even if some fail, so the ones that keep results still write them. */
export async function endReporters(reporters: readonly Reporter[], doc: RunDocument): Promise<unknown> {
  let firstError: unknown;
  for (const reporter of reporters) {
    try {
      await callReporters([reporter], 'onRunEnd', doc);
    } catch (error) {
      firstError ??= error;
    }
  }
  return firstError;
}
