import { isIP } from 'node:net';
import type { Command } from 'commander';
import { errors, printableLine, TFB_BURST, targetStartOptions } from '@bench/core';
import { commandTable, givenRunOptions } from '../options/index.js';
import { resolveScenarios, resolveTargets } from '../run/plan.js';
import { loadProject } from '../project/project.js';
import { verifyTarget } from '../run/verify.js';
import { createServiceManager } from '@bench/services';
import { interruptSignal } from './interrupt.js';
import { runRedaction } from '../redact/run-redaction.js';

/** Starts one target for ab, wrk or curl by hand; stops it cleanly on Ctrl-C. */
export async function serveCommand(targetName: string, scenarioName: string, command: Command): Promise<void> {
  const flags = command.opts<{ config?: string; host?: string }>();
  if (flags.host !== undefined && isIP(flags.host) === 0)
    throw errors.usage(
      `--host "${flags.host}" is not an IP address of this machine (e.g. 10.0.0.2); bench serve binds 127.0.0.1 unless told otherwise`,
    );
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const [target] = resolveTargets([targetName], project.targets);
  // the run options serve takes, as its row of the table names them
  const given = givenRunOptions(command, commandTable.serve.options);
  const [scenario] = resolveScenarios([scenarioName], project.scenarios, given.db);
  if (!target || !scenario) return;
  const availability = await target.available();
  if (!availability.ok) throw errors.targetUnavailable(target.name, availability.reason ?? 'unknown reason');
  const support = target.supports(scenario);
  if (!support.ok) throw errors.targetUnsupported(target.name, scenario.name, support.reason);

  const services = createServiceManager();
  await services.prepare([scenario]);
  const interrupt = interruptSignal();
  // what it prints holds no secret of the project's (a query parameter --redact names, a config's secret())
  const shown = runRedaction(project, given);
  const say = (stream: NodeJS.WriteStream, line: string) => stream.write(shown.text(line));
  try {
    const running = await target.start(scenario, {
      ...targetStartOptions(given, await services.endpointsFor(scenario)),
      ...(flags.host !== undefined ? { host: flags.host } : {}),
    });
    try {
      const verification = await verifyTarget(running.url, scenario, undefined, {
        database: (kind) => services.database(kind),
        burst: given.tfbBurst ?? TFB_BURST,
      });
      const url = running.url + scenario.request.path;
      say(process.stdout, `${url}\n`);
      // the backing services too, so a user can look at the data while the stack runs: bench's own throwaway servers
      // with the password bench made for them (a server named by URL comes without the user's)
      for (const service of services.running()) process.stderr.write(`bench: ${service.name} at ${service.address}\n`);
      say(
        process.stderr,
        verification.ok
          ? `bench: ${target.name} serves ${scenario.name} at ${url} (answer verified); Ctrl-C to stop\n`
          : `bench: warning: ${target.name} answers ${scenario.name} wrongly: ${printableLine(verification.problems.join('; '))}\n`,
      );
      const stopped = new Promise<string | undefined>((resolve) =>
        interrupt.signal.addEventListener('abort', () => resolve(undefined), { once: true }),
      );
      const crash = await Promise.race([stopped, running.crashed]);
      if (crash !== undefined) throw errors.targetDied(target.name, crash);
    } finally {
      await running.stop();
    }
  } catch (error) {
    throw shown.error(error);
  } finally {
    await services.stopAll();
    interrupt.dispose();
  }
}
