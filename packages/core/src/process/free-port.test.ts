import { readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { assertPortFree, findFreePort, LOOPBACK } from './free-port.js';

describe('ports for the servers bench starts', () => {
  it('come from below the kernel’s ephemeral range, where no outgoing connection takes them, and are free', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports = await Promise.all(Array.from({ length: 5 }, () => findFreePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
      await assertPortFree(port);
    }
  });

  it('says a port something listens on is in use', async () => {
    const server = net.createServer();
    const port = await findFreePort();
    await new Promise<void>((resolve) => server.listen(port, LOOPBACK, resolve));
    try {
      await expect(assertPortFree(port)).rejects.toMatchObject({ code: 'BENCH_ERR_PORT_IN_USE' });
    } finally {
      server.close();
    }
  });
});
