import type { Redis } from 'ioredis';

// the client loads with the first Redis a run starts or names, not with every bench command
const RedisClient = async () => (await import('ioredis')).Redis;
import { messageOf, errors, findFreePort, LOOPBACK, makePrivateDir, removeDir, spawnGroup, findBinary, versionOf } from '@bench/core';
import path from 'node:path';
import type { RunningService, ServiceDefinition } from './service.js';
import { waitUntilServing } from '@bench/core';

async function seed(client: Redis): Promise<void> {
  await client.set('test', 'test');
}

function running(client: Redis, host: string, port: number, stopServer: () => Promise<void>, processGroup?: number): RunningService {
  return {
    endpoint: { host, port, url: `redis://${host}:${port}` },
    ...(processGroup !== undefined ? { processGroup } : {}),
    async readCounter() {
      const stats = await client.info('stats');
      return { counter: 'keyspace_hits', value: Number(/keyspace_hits:(\d+)/.exec(stats)?.[1] ?? 0) };
    },
    async stop() {
      client.disconnect();
      await stopServer();
    },
  };
}

export const redisService: ServiceDefinition = {
  name: 'redis',
  title: 'Redis',
  binary: 'redis-server',
  aptPackage: 'redis-server',
  urlVariable: 'BENCH_REDIS_URL',
  version: () => versionOf('redis-server', ['--version'], /v=(\S+)/),

  async start(options = {}) {
    const host = options.host ?? LOOPBACK;
    const binary = findBinary('redis-server');
    if (!binary) throw errors.serviceUnavailable('Redis', 'redis-server', 'redis-server', 'BENCH_REDIS_URL');
    const dir = makePrivateDir('redis');
    const port = await findFreePort(host);
    // no persistence, one address (loopback unless asked), room for thousands of benchmark connections
    const proc = spawnGroup(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        host,
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--maxclients',
        '10000',
        '--daemonize',
        'no',
      ],
      { name: 'redis-server', cwd: dir, logFile: path.join(dir, 'redis.log') },
    );
    const stopServer = async () => {
      await proc.stop();
      removeDir(dir);
    };
    try {
      const client = await waitUntilServing(proc, async () => {
        const c = new (await RedisClient())({
          host,
          port,
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        c.on('error', () => {}); // failures surface as rejected commands
        try {
          await c.connect();
          await c.ping();
          return c;
        } catch (error) {
          c.disconnect();
          throw error;
        }
      });
      await seed(client);
      return running(client, host, port, stopServer, proc.pid);
    } catch (error) {
      await stopServer();
      throw errors.serviceStart('Redis', messageOf(error), error);
    }
  },

  async connect(url) {
    const parsed = new URL(url);
    const port = Number(parsed.port || 6379);
    const client = new (await RedisClient())({ host: parsed.hostname, port, lazyConnect: true, maxRetriesPerRequest: 1 });
    client.on('error', () => {}); // failures surface as rejected commands
    try {
      await client.connect();
      await seed(client);
    } catch (error) {
      client.disconnect();
      throw errors.serviceStart('Redis', `cannot use BENCH_REDIS_URL=${url}: ${messageOf(error)}`, error);
    }
    return running(client, parsed.hostname, port, async () => {});
  },
};
