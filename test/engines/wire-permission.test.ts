import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runProcess } from '../support/cli.js';

// `bench run --engine wire` under Node's permission model, which refuses process.binding (the js core's libuv handles)
// and native addons unless allowed. The flags differ by version: Node 20 names the model --experimental-permission;
// Node 26 also asks for --allow-net before a socket connects.
const flags = process.allowedNodeEnvironmentFlags;
const permission = [
  flags.has('--permission') ? '--permission' : '--experimental-permission',
  '--allow-fs-read=*',
  // wire runs on worker threads
  '--allow-worker',
  ...(flags.has('--allow-net') ? ['--allow-net'] : []),
];
let server: http.Server;
let url = '';
beforeAll(async () => {
  server = http.createServer((_request, response) => response.end('hi'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function wireUnder(nodeFlags: readonly string[]) {
  const run = await runProcess(process.execPath, [
    ...nodeFlags,
    cliPath,
    'run',
    '--url',
    url,
    '--engine',
    'wire',
    '-c',
    '2',
    '-n',
    '200',
    '--warmup',
    '0',
    '-r',
    'json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  const [cell] = (JSON.parse(run.stdout) as { results: { engine: { version: string }; requests: number }[] }).results;
  return cell!;
}

describe(`the wire engine under Node's permission model (${permission[0]})`, () => {
  it("runs its js core on Node's public net sockets, and says so", async () => {
    const cell = await wireUnder(permission);
    expect(cell.engine.version).toMatch(/\(js core on net sockets\)$/);
    expect(cell.requests).toBe(200);
  });

  it('runs its native core where addons are allowed: it needs none of the internals', async () => {
    const cell = await wireUnder([...permission, '--allow-addons']);
    expect(cell.engine.version).toMatch(/\(native core\)$/);
    expect(cell.requests).toBe(200);
  });
});
