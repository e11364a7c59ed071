import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandTarget, type RunEvent, type TargetPlugin } from '@bench/runner';

const script = fileURLToPath(new URL('../fixtures/servers/soak-server.cjs', import.meta.url));

/** The soak fixture server (test/fixtures/servers/soak-server.cjs) as a command target, misbehaving as `env` says. */
export function soakFixture(name: string, env: Record<string, string> = {}): TargetPlugin {
  // the name on its command line, so a test can find this server's processes among everyone's
  return commandTarget({ name, command: process.execPath, args: [script, name], cwd: path.dirname(script), env });
}

/** Live processes of the soak fixture started under one of these names. */
export function soakFixtureProcesses(names: readonly string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (/\) [ZX] /.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args.some((a) => a.endsWith('soak-server.cjs')) && names.includes(args.at(-2) ?? '')) found.push(Number(entry));
    } catch {
      // gone while reading
    }
  }
  return found;
}

/** The pid the fixture wrote, and a callback on the measured load's progress of one target (seconds since its load began). */
export function onLoadOf(target: string, pidFile: string, act: (pid: number, elapsedSeconds: number) => void) {
  let current = '';
  return (event: RunEvent) => {
    if (event.type === 'cell-start') current = event.phase === 'measure' ? event.target : '';
    if (event.type === 'cell-progress' && current === target) act(Number(readFileSync(pidFile, 'utf8')), event.progress.elapsedSeconds);
  };
}
