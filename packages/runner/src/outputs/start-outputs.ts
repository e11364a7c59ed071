import { errors } from '@bench/core';
import type { RunEvent } from '../run/run-events.js';
import { MetricsOutput, outputKinds, type OutputKind } from './metrics-output.js';

/** A run's live outputs, each probed before any load: a receiver that is not there or refuses is bad input. */
export async function startOutputs(
  urls: Readonly<Partial<Record<OutputKind, string>>>,
  headers: Readonly<Record<string, string>> = {},
  log: (line: string) => void = () => {},
): Promise<MetricsOutput[]> {
  const outputs = (Object.keys(outputKinds) as OutputKind[]).flatMap((kind) => {
    const url = urls[kind];
    return url !== undefined ? [new MetricsOutput(kind, url, headers, log)] : [];
  });
  for (const output of outputs) {
    const unusable = await output.probe();
    const { what, hint } = outputKinds[output.kind];
    if (unusable !== undefined) throw errors.usage(`${what} ${output.url} cannot be used (${unusable}); ${hint} or leave it out`);
  }
  return outputs;
}

/** Every output told of each run event. */
export const recordInOutputs =
  (outputs: readonly MetricsOutput[]) =>
  (event: RunEvent): void => {
    for (const output of outputs) output.record(event);
  };

/** Waits for what each output has queued, and says per receiver what was sent and what was not. */
export async function closeOutputs(outputs: readonly MetricsOutput[], say: (line: string) => void): Promise<void> {
  for (const output of outputs) {
    const tally = await output.close();
    const notSent = tally.notSent > 0 ? `, ${tally.notSent} not sent (${tally.lastError ?? 'unknown'})` : '';
    say(`bench: ${output.kind}: ${tally.sent} points sent to ${output.url}${notSent}\n`);
  }
}
