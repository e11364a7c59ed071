import { killAllGroupsNow } from '@bench/core';

/**
 * An AbortSignal fired by the first SIGINT or SIGTERM, so the run can stop its servers and keep its
 * results; a second signal kills every process group at once and exits.
 */
export function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      killAllGroupsNow();
      process.exit(130);
    }
    process.stderr.write(`\nbench: ${name} received, stopping (again to force)\n`);
    controller.abort(name);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
    },
  };
}
