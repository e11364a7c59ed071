import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAuthority, makePrivateDir, makeTlsMaterial, removeDir, type TlsMaterial } from '@bench/core';
import { warmUp, type WarmUpPolicy } from './warm-up.js';

// A short warm-up: two connections, until 0.6 s.
const policy: WarmUpPolicy = {
  connections: 2,
  windowSeconds: 0.2,
  minSeconds: 0.6,
  maxSeconds: 0.6,
  plateauGain: 0.05,
  settledWindows: 100,
};

describe("a JVM's warm-up over TLS", () => {
  let dir = '';
  let other = '';
  let otherCa = '';
  let tls: TlsMaterial;
  let server: https.Server;
  let url = '';
  beforeAll(async () => {
    dir = makePrivateDir('warm-up-test');
    other = makePrivateDir('warm-up-test-other');
    tls = await makeTlsMaterial(dir);
    otherCa = (await makeAuthority(other, 'other')).certFile;
    server = https.createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (_, res) =>
      res.writeHead(200, { 'content-length': 2 }).end('ok'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => {
    server.close();
    removeDir(dir);
    removeDir(other);
  });

  it('drives an https server over kept-alive connections verified against the run CA', async () => {
    const done = await warmUp(url, policy, tls.caFile);
    expect(done.requests).toBeGreaterThan(50);
  });

  it('gets no answer from a server another CA signed', async () => {
    const done = await warmUp(url, policy, otherCa);
    expect(done.requests).toBe(0);
  });
});
