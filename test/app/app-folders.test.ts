import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { runCli } from '../support/cli.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';
import { testTempDir } from '../support/temp-dir.js';

// An app repo's own folder scenario: a manifest and a TypeScript handler, run by the built-in Node targets without a build step.
const app = testTempDir('app-folders');
const greet = path.join(app, 'bench', 'greet');
mkdirSync(greet, { recursive: true });
writeFileSync(
  path.join(greet, 'scenario.json'),
  JSON.stringify({
    name: 'greet',
    title: 'a greeting built per request',
    from: [],
    description: 'The body is exactly `Hello, bench!` (13 bytes), text/plain.',
    path: '/greet',
    contentType: 'text/plain',
    body: { text: 'Hello, bench!' },
    kind: 'dynamic',
  }),
);
writeFileSync(
  path.join(greet, 'node.ts'),
  `interface Reply { type(t: string): Reply; send(body: string): void }
interface App { get(path: string, handler: (request: unknown, reply: Reply) => void): void }
const greeting = (name: string): string => \`Hello, \${name}!\`;
export default function register(app: App, context: { scenario: { request: { path: string } } }): void {
  app.get(context.scenario.request.path, (_request, reply) => reply.type('text/plain').send(greeting('bench')));
}
`,
);
writeFileSync(
  path.join(app, 'bench.config.mjs'),
  "export default { targets: ['node', 'node-cluster'], scenarios: ['./bench/greet'], defaults: { durationSeconds: 1, warmupSeconds: 0, concurrency: [2] } };\n",
);

describe("an app repo's folder scenario", () => {
  it('runs its TypeScript Node handler on the built-in Node targets, no build step', async () => {
    const before = serverProcesses();
    const out = path.join(app, 'r.json');
    const run = await runCli(['run', '--workers', '2', '--reporter', 'json', '--out', out], { cwd: app });
    expect(run.code, run.stderr).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.results.map((r) => `${r.scenario}/${r.target}/${r.status}/${r.failed}`)).toEqual([
      'greet/node/ok/0',
      'greet/node-cluster/ok/0',
    ]);
    expect(doc.results[0]?.bytes.body).toBe((doc.results[0]?.requests ?? 0) * 13);
    expect(await leftoverServers(before)).toEqual([]);
  });

  it('is listed with what each reference stack cannot serve, and verified by bench verify', async () => {
    const list = await runCli(['list'], { cwd: app });
    expect(list.stdout).toMatch(/^greet +GET \/greet /m);
    const verify = await runCli(['verify', '-t', 'node,php-mod'], { cwd: app });
    expect(verify.stdout).toMatch(/^node +ok/m);
    expect(verify.stdout).toMatch(/php-mod \/ greet: not supported: the scenario has no index\.php/);
    expect(verify.code).toBe(0);
  });
});
