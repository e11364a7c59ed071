import { createPool } from 'generic-pool';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import memjs from 'memjs';
import type { NodeScenarioContext, ServiceEndpoint } from '@bench/core';
import { errors } from '@bench/core/scenario-serving';

/** Backend clients for a Node handler: one shared connection per process, or a generic-pool of them. */
export interface Backend<C> {
  /** Runs `work` with a client (borrowed from the pool, or the process's one connection). */
  use<T>(work: (client: C) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface ClientFactory<C> {
  create(): Promise<C>;
  destroy(client: C): Promise<void>;
}

export async function backend<C>(factory: ClientFactory<C>, pool: NodeScenarioContext['pool']): Promise<Backend<C>> {
  if (!pool.enabled) {
    // "without a pool": one connection per process, opened at start-up and shared by every request
    const client = await factory.create();
    return { use: (work) => work(client), close: () => factory.destroy(client) };
  }
  const clients = createPool(factory, { min: pool.size, max: pool.size });
  await clients.ready();
  return {
    use: (work) => clients.use(work),
    close: async () => {
      await clients.drain();
      await clients.clear();
    },
  };
}

function endpoint(context: NodeScenarioContext, name: 'redis' | 'mysql' | 'memcached'): ServiceEndpoint {
  const found = context.services[name];
  if (!found) throw errors.scenarioInvalid(`of ${context.scenario.name}`, `its handler needs ${name}, which its services do not list`);
  return found;
}

export function redisBackend(context: NodeScenarioContext): Promise<Backend<Redis>> {
  const { host, port } = endpoint(context, 'redis');
  return backend(
    {
      async create() {
        const client = new Redis({ host, port, lazyConnect: true });
        client.on('error', () => {}); // a lost connection fails the request (and the run counts it); no log flood
        await client.connect();
        return client;
      },
      async destroy(client) {
        client.disconnect();
      },
    },
    context.pool,
  );
}

export function mysqlBackend(context: NodeScenarioContext): Promise<Backend<mysql.Connection>> {
  const { host, port, user, password, database } = endpoint(context, 'mysql');
  return backend(
    {
      create: () => mysql.createConnection({ host, port, user, password, database }),
      destroy: (connection) => connection.end(),
    },
    context.pool,
  );
}

export function memcachedBackend(context: NodeScenarioContext): Promise<Backend<memjs.Client>> {
  const { host, port } = endpoint(context, 'memcached');
  return backend(
    {
      async create() {
        const client = memjs.Client.create(`${host}:${port}`, { logger: { log: () => {} } });
        await client.get('test'); // opens the connection now, not on the first request
        return client;
      },
      async destroy(client) {
        client.close();
      },
    },
    context.pool,
  );
}
