import path from 'node:path';
import type memjs from 'memjs';
import { messageOf, errors, findFreePort, LOOPBACK, makePrivateDir, removeDir, spawnGroup, findBinary, versionOf } from '@bench/core';
import type { RunningService, ServiceDefinition } from './service.js';
import { waitUntilServing } from '@bench/core';

type Client = memjs.Client;

// the client loads with the first memcached a run starts or names, not with every bench command
async function connectClient(host: string, port: number): Promise<Client> {
  return (await import('memjs')).default.Client.create(`${host}:${port}`, {
    retries: 0,
    timeout: 1,
    conntimeout: 1,
    logger: { log: () => {} },
  });
}

async function seed(client: Client): Promise<void> {
  await client.set('test', 'test', { expires: 0 });
}

function getHits(client: Client): Promise<number> {
  return new Promise((resolve, reject) => {
    client.stats((error, _server, stats) => {
      if (error) reject(error);
      else resolve(Number(stats?.get_hits ?? 0));
    });
  });
}

function running(client: Client, host: string, port: number, stopServer: () => Promise<void>, processGroup?: number): RunningService {
  return {
    endpoint: { host, port, url: `memcached://${host}:${port}` },
    ...(processGroup !== undefined ? { processGroup } : {}),
    async readCounter() {
      return { counter: 'get_hits', value: await getHits(client) };
    },
    async stop() {
      client.close();
      await stopServer();
    },
  };
}

export const memcachedService: ServiceDefinition = {
  name: 'memcached',
  title: 'memcached',
  binary: 'memcached',
  aptPackage: 'memcached',
  urlVariable: 'BENCH_MEMCACHED_URL',
  version: () => versionOf('memcached', ['-V'], /memcached (\S+)/),

  async start(options = {}) {
    const host = options.host ?? LOOPBACK;
    const binary = findBinary('memcached');
    if (!binary) throw errors.serviceUnavailable('memcached', 'memcached', 'memcached', 'BENCH_MEMCACHED_URL');
    const dir = makePrivateDir('memcached');
    const port = await findFreePort(host);
    // TCP on one address (loopback unless asked), no UDP, room for thousands of connections; memcached refuses root without -u
    const args = ['-l', host, '-p', String(port), '-U', '0', '-c', '10000', '-t', '1', '-m', '64'];
    if (process.getuid?.() === 0) args.push('-u', 'root');
    const proc = spawnGroup(binary, args, { name: 'memcached', cwd: dir, logFile: path.join(dir, 'memcached.log') });
    const stopServer = async () => {
      await proc.stop();
      removeDir(dir);
    };
    try {
      const client = await waitUntilServing(proc, async () => {
        const c = await connectClient(host, port);
        try {
          await seed(c);
          return c;
        } catch (error) {
          c.close();
          throw error;
        }
      });
      return running(client, host, port, stopServer, proc.pid);
    } catch (error) {
      await stopServer();
      throw errors.serviceStart('memcached', messageOf(error), error);
    }
  },

  async connect(url) {
    const parsed = new URL(url);
    const port = Number(parsed.port || 11211);
    const client = await connectClient(parsed.hostname, port);
    try {
      await seed(client);
    } catch (error) {
      client.close();
      throw errors.serviceStart('memcached', `cannot use BENCH_MEMCACHED_URL=${url}: ${messageOf(error)}`, error);
    }
    return running(client, parsed.hostname, port, async () => {});
  },
};
