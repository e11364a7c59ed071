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

interface Candidate extends ServerProcess {
  readonly sid: number;
  readonly ours: boolean;
}

// the fields after the command's closing parenthesis: state, ppid, pgrp, session
const sessionOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
const runnerSession = sessionOf(readFileSync('/proc/self/stat', 'utf8'));

const scopeMarker = () => (process.env.BENCH_TEST_SCOPE ? `BENCH_TEST_SCOPE=${process.env.BENCH_TEST_SCOPE}\0` : undefined);

/** Whether a process was started within this test file's scope: it carries the file's marker in its environment. */
function inScope(pid: string, marker: string | undefined): boolean {
  if (marker === undefined) return true;
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(marker);
  } catch {
    return false; // another account's process, when the tests do not run as root: not ours
  }
}

/**
 * Every live process of this test file's scope whose command line looks like a server bench starts, or that runs a load
 * generator bench launches. A process that a server made with an environment of its own (a CGI, a FastCGI worker) counts
 * when it shares a session with one that carries the marker.
 */
export function serverProcesses(): ServerProcess[] {
  const marker = scopeMarker();
  const candidates: Candidate[] = [];
  const ourSessions = new Set<number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (/\) [ZX] /.test(stat)) continue;
      const sid = sessionOf(stat);
      const ours = inScope(name, marker);
      // the test runner's own session holds every file's workers: sessions of the stacks bench started only
      if (ours && sid !== runnerSession) ourSessions.add(sid);
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const cmdline = argv.join(' ').trim();
      if (SERVER_PATTERN.test(cmdline) || generatorPrograms.has(path.basename(argv[0] ?? '')))
        candidates.push({ pid: Number(name), cmdline, sid, ours });
    } catch {
      // gone while reading
    }
  }
  return candidates.filter((p) => p.ours || ourSessions.has(p.sid)).map(({ pid, cmdline }) => ({ pid, cmdline }));
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
