import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { builtinEngines, serviceDefinitions } from '@bench/runner';
import { builtinTargets } from '@bench/targets';

// Programs bench starts as servers, as each built-in target and service names them: a test fails if one outlives what started it.
const serverNames = [...builtinTargets.flatMap((t) => t.processNames ?? []), ...Object.values(serviceDefinitions).map((s) => s.binary)];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SERVER_PATTERN = new RegExp(`(${[...new Set(serverNames)].map(escape).join('|')})`);
// Load generators bench launches (wrk, ab, k6), as each built-in engine names its program.
const generatorPrograms = new Set(builtinEngines.flatMap((e) => e.processNames ?? []));

export interface ServerProcess {
  readonly pid: number;
  readonly cmdline: string;
}

/** Every live process whose command line looks like a server bench starts, or that runs a load generator bench launches. */
export function serverProcesses(): ServerProcess[] {
  const found: ServerProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (/\) [ZX] /.test(stat)) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const cmdline = argv.join(' ').trim();
      if (SERVER_PATTERN.test(cmdline) || generatorPrograms.has(path.basename(argv[0] ?? ''))) found.push({ pid: Number(name), cmdline });
    } catch {
      // gone while reading
    }
  }
  return found;
}

/** Server processes that exist now but did not in `before`. */
export function newServerProcesses(before: readonly ServerProcess[]): ServerProcess[] {
  const known = new Set(before.map((p) => p.pid));
  return serverProcesses().filter((p) => !known.has(p.pid));
}

/** Waits briefly for stragglers to be reaped, then returns what is left. */
export async function leftoverServers(before: readonly ServerProcess[], graceMs = 3000): Promise<ServerProcess[]> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const left = newServerProcesses(before);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}
