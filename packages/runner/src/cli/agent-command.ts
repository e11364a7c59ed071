import { runAgent } from '@bench/hosts';
import { loadProject } from '../project/project.js';
import { TOOL_VERSION } from '../version.js';
import { doctorText } from './doctor-command.js';

/**
 * `bench agent`: what a runner on another machine starts here over SSH (--server-host, --database-host). It speaks
 * JSON lines on its standard input and output, starts this folder's targets and services as a local run would, and
 * stops them all when its input closes or its runner falls silent. Not for people: its stdout is the protocol's.
 */
export async function agentCommand(flags: { config?: string }): Promise<void> {
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const why = await runAgent({
    project: { targets: project.targets, scenarios: project.scenarios, doctor: () => doctorText(project) },
    version: TOOL_VERSION,
    input: process.stdin,
    output: process.stdout,
  });
  process.stderr.write(`bench agent: stopped (${why})\n`);
  // what it started is stopped; whatever else holds the loop (a client's idle socket) is not worth waiting for
  process.exit(0);
}
