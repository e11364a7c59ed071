import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandTarget, type TargetPlugin } from '@bench/runner';

const script = fileURLToPath(new URL('../fixtures/servers/soak-server.cjs', import.meta.url));

/** The soak fixture server (test/fixtures/servers/soak-server.cjs) as a command target, misbehaving as `env` says. */
export function soakFixture(name: string, env: Record<string, string> = {}): TargetPlugin {
  return commandTarget({ name, command: process.execPath, args: [script], cwd: path.dirname(script), env });
}
