import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import memjs from 'memjs';
import pg from 'pg';
import { listGroupMembers, onDatabase } from '@bench/core';
import { builtinScenarios } from '@bench/runner';
import { createServiceManager } from '@bench/runner';
import { leftoverServers, serverProcesses } from '../support/processes.js';

const byName = new Map(builtinScenarios().map((s) => [s.name, s]));
const scenario = (name: string) => {
  const found = byName.get(name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};

describe('service manager, with real servers', () => {
  const before = serverProcesses();
  const services = createServiceManager({});
  afterAll(() => services.stopAll());

  it('starts Redis on loopback, seeded, and its hit counter moves', async () => {
    const { redis } = await services.endpointsFor(scenario('redis-get'));
    expect(redis?.host).toBe('127.0.0.1');
    const client = new Redis({ host: redis?.host, port: redis?.port });
    const before = (await services.readCounters(scenario('redis-get'))).redis?.value ?? -1;
    expect(await client.get('test')).toBe('test');
    const after = (await services.readCounters(scenario('redis-get'))).redis;
    client.disconnect();
    expect(after).toMatchObject({ counter: 'keyspace_hits' });
    expect((after?.value ?? 0) - before).toBe(1);
  });

  it('starts memcached, seeded, and its get_hits counter moves', async () => {
    const { memcached } = await services.endpointsFor(scenario('memcache-get'));
    const client = memjs.Client.create(`${memcached?.host}:${memcached?.port}`, { logger: { log: () => {} } });
    const before = (await services.readCounters(scenario('memcache-get'))).memcached?.value ?? -1;
    expect((await client.get('test')).value?.toString()).toBe('test');
    const after = (await services.readCounters(scenario('memcache-get'))).memcached?.value ?? -1;
    client.close();
    expect(after - before).toBe(1);
  });

  it('starts MariaDB with a generated password, seeded, and Com_select moves', async () => {
    const { mysql: db } = await services.endpointsFor(scenario('mysql-select'));
    expect(db?.password).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const connection = await mysql.createConnection({
      host: db?.host,
      port: db?.port,
      user: db?.user,
      password: db?.password,
      database: db?.database,
    });
    const before = (await services.readCounters(scenario('db'))).mysql?.value ?? -1;
    const [rows] = await connection.query('SELECT * FROM testtable');
    expect(rows).toEqual([{ id: 1, name: 'test' }]);
    const after = (await services.readCounters(scenario('db'))).mysql?.value ?? -1;
    await connection.end();
    expect(after - before).toBe(1);
    await expect(mysql.createConnection({ host: db?.host, port: db?.port, user: db?.user, password: 'wrong' })).rejects.toThrow(
      /Access denied/,
    );
  });

  it('shares one server per service across scenarios, and stops them all with their process groups', async () => {
    const a = await services.endpointsFor(scenario('db'));
    const b = await services.endpointsFor(scenario('cache'));
    expect(a.mysql?.port).toBe(b.mysql?.port);
    const groups = services.processGroups();
    expect(groups).toHaveLength(3);
    await services.stopAll();
    for (const group of groups) expect(listGroupMembers(group)).toEqual([]);
    expect(await leftoverServers(before)).toEqual([]);
    expect(services.processGroups()).toEqual([]);
  });
});

describe('PostgreSQL, with a real server', () => {
  const before = serverProcesses();
  const services = createServiceManager({});
  const tfbDb = onDatabase(scenario('tfb-db'), 'postgres');
  afterAll(() => services.stopAll());

  it("starts with a generated password, seeded as TFB's create-postgres.sql, and counts as TFB's PostgreSQL class reads", async () => {
    expect(tfbDb.services).toEqual(['postgres']);
    const { postgres: db } = await services.endpointsFor(tfbDb);
    expect(db?.host).toBe('127.0.0.1');
    expect(db?.password).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const client = new pg.Client({ host: db?.host, port: db?.port, user: db?.user, password: db?.password, database: db?.database });
    await client.connect();
    try {
      const count = await client.query(
        'SELECT COUNT(*)::int AS n, MIN(randomnumber) >= 1 AND MAX(randomnumber) <= 10000 AS ranged FROM world',
      );
      expect(count.rows[0]).toEqual({ n: 10_000, ranged: true });
      expect((await client.query('SELECT COUNT(*)::int AS n FROM fortune')).rows[0]).toEqual({ n: 12 });
      const probe = await services.database('postgres');
      expect(probe.kind).toBe('postgres');
      const [world, fortune, calls] = [await probe.work('world'), await probe.work('fortune'), await services.readCounters(tfbDb)];
      for (let id = 1; id <= 5; id++) await client.query('SELECT id, randomNumber FROM World WHERE id = $1', [id]);
      await client.query('UPDATE World SET randomNumber = 7 WHERE id = $1', [1]);
      await client.query('UPDATE World SET randomNumber = 8 WHERE id IN (2, 3)');
      await client.query('SELECT id, message FROM Fortune');
      // a statement naming no table of TFB's is not the test's; one naming "worldwide" is not World's
      await client.query('SELECT 1 AS worldwide');
      const work = await probe.work('world');
      expect({
        selects: work.selects - world.selects,
        updates: work.updates - world.updates,
        rowsRead: work.rowsRead - world.rowsRead,
        rowsUpdated: work.rowsUpdated - world.rowsUpdated,
      }).toEqual({ selects: 5, updates: 2, rowsRead: 5, rowsUpdated: 3 });
      expect((await probe.work('fortune')).rowsRead - fortune.rowsRead).toBe(12);
      expect((await services.readCounters(tfbDb)).postgres?.value ?? 0).toBe((calls.postgres?.value ?? 0) + 9);
    } finally {
      await client.end();
    }
    const wrong = new pg.Client({ host: db?.host, port: db?.port, user: db?.user, password: 'wrong', database: db?.database });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
  });

  it('stops with its process group and leaves no server behind', async () => {
    const groups = services.processGroups();
    expect(groups).toHaveLength(1);
    await services.stopAll();
    for (const group of groups) expect(listGroupMembers(group)).toEqual([]);
    expect(await leftoverServers(before)).toEqual([]);
  });
});

describe('services named by URL', () => {
  it('uses an existing Redis given by BENCH_REDIS_URL instead of starting one', async () => {
    const owner = createServiceManager({});
    const { redis } = await owner.endpointsFor(scenario('redis-get'));
    try {
      const borrower = createServiceManager({ BENCH_REDIS_URL: redis?.url });
      const endpoints = await borrower.endpointsFor(scenario('redis-get'));
      expect(endpoints.redis?.port).toBe(redis?.port);
      expect(borrower.processGroups()).toEqual([]);
      expect((await borrower.readCounters(scenario('redis-get'))).redis?.counter).toBe('keyspace_hits');
      await borrower.stopAll();
      // the borrowed server is still there
      const client = new Redis({ host: redis?.host, port: redis?.port });
      expect(await client.get('test')).toBe('test');
      client.disconnect();
    } finally {
      await owner.stopAll();
    }
  });

  it('refuses a missing binary before starting anything, naming the package and the URL variable', async () => {
    const services = createServiceManager({}, () => undefined);
    const failure = services.prepare([scenario('redis-get')]);
    await expect(failure).rejects.toMatchObject({ code: 'BENCH_ERR_SERVICE_UNAVAILABLE', exitCode: 2 });
    await expect(failure).rejects.toThrow(/apt-get install redis-server.*BENCH_REDIS_URL/);
    expect(services.processGroups()).toEqual([]);
    // with a URL the binary is not needed
    await expect(
      createServiceManager({ BENCH_REDIS_URL: 'redis://127.0.0.1:1' }, () => undefined).prepare([scenario('redis-get')]),
    ).resolves.toBeUndefined();
  });
});
