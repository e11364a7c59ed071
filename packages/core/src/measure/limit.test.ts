import { describe, expect, it } from 'vitest';
import { cellLimit, type LimitInput } from './limit.js';

const idle: LimitInput = {
  concurrency: 4,
  rps: 77,
  meanMs: 51.8,
  requests: 385,
  timeouts: 0,
  connectFailures: 0,
  engine: 'wire',
  client: { cpuPercent: 2, cores: 1 },
  server: { cpuPercent: 1, cores: 1 },
  machineBusyPercent: 3,
};

describe('what bounded a cell', () => {
  it('names waiting, by Little’s law, when nothing worked', () => {
    expect(cellLimit(idle)).toEqual({
      by: 'waiting',
      line: 'bounded by waiting: 4 connections x 51.8 ms = 77 rps, machine 3% busy',
    });
  });

  it('names the server when it used the cores it can, and the generator before it when both did', () => {
    const server = cellLimit({ ...idle, server: { cpuPercent: 190, cores: 2 }, machineBusyPercent: 98 });
    expect(server).toEqual({
      by: 'server',
      line: "bounded by the server's CPU: server 190% of one core (of 2) (generator 2% of one core (of 1), machine 98% busy)",
    });
    const both = cellLimit({ ...idle, client: { cpuPercent: 97, cores: 1 }, server: { cpuPercent: 95, cores: 1 }, machineBusyPercent: 96 });
    expect(both.by).toBe('generator');
    expect(both.line).toMatch(
      /^bounded by the load generator: wire used 97% of one core \(of 1\) \(server 95% of one core \(of 1\), machine 96% busy\)/,
    );
  });

  it('names the server by its busiest thread when one event loop held it, cores to spare', () => {
    const loop = cellLimit({ ...idle, server: { cpuPercent: 99, cores: 2, busiestThreadPercent: 96 }, machineBusyPercent: 88 });
    expect(loop).toEqual({
      by: 'server',
      line: "bounded by the server's CPU: its busiest thread at 96% of one core (an event loop or a lone worker; server 99% of one core (of 2), generator 2% of one core (of 1), machine 88% busy)",
    });
  });

  it('names the generator by its event loop too, and says what a cheaper engine costs', () => {
    const lag = cellLimit({ ...idle, eventLoopP99Ms: 172.8, cheaperEngine: () => 'wrk costs 10.8 µs ...: --engine wrk' });
    expect(lag.line).toMatch(
      /^bounded by the load generator: its event loop lagged 172\.8 ms at p99 .*; wrk costs 10\.8 µs \.\.\.: --engine wrk$/,
    );
  });

  it('names the machine when its cores were busy but neither side alone, and says a --url run cannot see the server', () => {
    const machine = cellLimit({ ...idle, server: undefined, client: { cpuPercent: 60, cores: 1 }, machineBusyPercent: 95 });
    expect(machine).toEqual({
      by: 'machine',
      line: 'bounded by the machine: its cores 95% busy, neither side saturated on its own (generator 60% of one core (of 1)); a --url run cannot see the server',
    });
  });

  it('names timeouts and failed connects as connections, stalls as stalls, and a held rate as the rate', () => {
    expect(cellLimit({ ...idle, timedOut: '12 of 100 requests timed out' }).line).toBe(
      'bounded by connections: 12 of 100 requests timed out',
    );
    expect(cellLimit({ ...idle, connectFailures: 40 }).line).toMatch(/^bounded by connections: 40 of 425 connects failed/);
    expect(cellLimit({ ...idle, machineBusyPercent: 60, stall: '3 requests waited 1 s' }).line).toBe(
      'bounded by stalls: 3 requests waited 1 s',
    );
    expect(cellLimit({ ...idle, rate: { target: 2000, achieved: 1999.5 } }).by).toBe('rate');
    expect(cellLimit({ ...idle, machineBusyPercent: 70 }).by).toBe('unclear');
  });
});

describe('what bounded a cell on several hosts', () => {
  const twoHosts: LimitInput = {
    ...idle,
    clientHost: 'lab-client',
    serverHost: { name: 'lab-server', cores: 1, busyPercent: 40 },
    machineBusyPercent: 30,
  };

  it('names the host of the side that limited it', () => {
    expect(cellLimit({ ...twoHosts, server: { cpuPercent: 97, cores: 1 } }).line).toBe(
      "bounded by the server's CPU on lab-server: server 97% of one core (of 1) (generator 2% of one core (of 1), client host lab-client 30% busy, server host lab-server 40% busy)",
    );
    expect(cellLimit({ ...twoHosts, client: { cpuPercent: 99, cores: 1 } }).line).toMatch(
      /^bounded by the load generator on the client \(lab-client\): wire used 99% of one core/,
    );
  });

  it('names the database host, the link, or one host as a whole where no side saturated alone', () => {
    const database = cellLimit({ ...twoHosts, databaseHost: { name: 'lab-db', cores: 2, busyPercent: 95, cpuPercent: 190 } });
    expect(database).toMatchObject({ by: 'database' });
    expect(database.line).toMatch(/^bounded by the database host \(lab-db\): its services at 190% of one core \(of 2\)/);
    const link = cellLimit({ ...twoHosts, link: { bytesPerSecond: 110e6, capacityBytesPerSecond: 117e6 } });
    expect(link).toMatchObject({ by: 'link' });
    expect(link.line).toMatch(/^bounded by the link to lab-server: 110 MB\/s received, of the 117 MB\/s it carried/);
    const serverBusy = cellLimit({ ...twoHosts, serverHost: { name: 'lab-server', cores: 1, busyPercent: 96 } });
    expect(serverBusy).toMatchObject({ by: 'machine' });
    expect(serverBusy.line).toMatch(/^bounded by the server host \(lab-server\): its cores 96% busy/);
    const clientBusy = cellLimit({ ...twoHosts, machineBusyPercent: 95 });
    expect(clientBusy.line).toMatch(/^bounded by the client host \(lab-client\): its cores 95% busy/);
  });

  it('calls a cell bounded by waiting only when every host was mostly idle', () => {
    expect(cellLimit({ ...twoHosts, machineBusyPercent: 3, serverHost: { name: 'lab-server', cores: 1, busyPercent: 4 } }).by).toBe(
      'waiting',
    );
    expect(cellLimit({ ...twoHosts, machineBusyPercent: 3, serverHost: { name: 'lab-server', cores: 1, busyPercent: 70 } }).by).toBe(
      'unclear',
    );
  });
});
