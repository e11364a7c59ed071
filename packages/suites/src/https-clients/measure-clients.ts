import path from 'node:path';
import { messageOf, errors, makePrivateDir, removeDir, spawnGroup } from '@bench/core';
import { makeTlsMaterial } from '@bench/core';
import { HTTPS_CLIENT_PAGE, startTlsServer } from './tls-server.js';
import { httpsClients, type HttpsClient, type HttpsClientName } from './clients.js';

export interface HttpsClientMeasurement {
  readonly client: HttpsClientName;
  readonly version: string;
  readonly n: number;
  /** Wall-clock seconds of each whole-process run, as `time` measured them in the article. */
  readonly seconds: readonly number[];
}

export interface MeasureOptions {
  /** The https-client scenario's folder: each client's source, built once into bench's cache. */
  readonly sourcesDir: string;
  readonly ns: readonly number[];
  readonly runs: number;
  readonly clients?: readonly HttpsClientName[];
  readonly onProgress?: (line: string) => void;
  readonly signal?: AbortSignal;
}

/** Runs one client once: a whole process, timed from spawn to exit; its output must be the page, n times. */
async function timeOnce(command: readonly string[], url: string, n: number, caFile: string, cwd: string): Promise<number> {
  const started = process.hrtime.bigint();
  const proc = spawnGroup(command[0] ?? '', [...command.slice(1), url, String(n), caFile], {
    name: path.basename(command[0] ?? 'client'),
    cwd,
    captureStdout: true,
  });
  const exit = await proc.exited;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await proc.stop(1000);
  const expected = `${HTTPS_CLIENT_PAGE}\n`.repeat(n);
  if (exit.code !== 0 || proc.stdout() !== expected) {
    const fetched = proc
      .stdout()
      .split('\n')
      .filter((line) => line === HTTPS_CLIENT_PAGE).length;
    throw errors.processFailed(
      `${path.basename(command[0] ?? 'client')}: exit ${exit.code ?? exit.signal}, ${fetched} of ${n} pages as expected: ${proc.outputTail().trim().split('\n').slice(-2).join(' | ')}`,
    );
  }
  return seconds;
}

/**
 * Article 002 on today's clients: a local TLS server with a CA and certificate made now, each
 * client run `runs` times for each n (the clients interleaved, so a drift falls on all alike),
 * each run a whole process timed from start to exit, its output checked.
 */
export async function measureHttpsClients(o: MeasureOptions): Promise<HttpsClientMeasurement[]> {
  const dir = makePrivateDir('https-clients');
  const sources = o.sourcesDir;
  try {
    const tls = await makeTlsMaterial(dir);
    const clients = httpsClients.filter((c) => (o.clients ?? httpsClients.map((x) => x.name)).includes(c.name));
    const ready: Array<{ client: HttpsClient; version: string; command: readonly string[] }> = [];
    for (const client of clients) {
      const availability = client.available();
      if (!availability.ok) continue;
      ready.push({ client, version: availability.version ?? 'unknown', command: await client.prepare(sources, dir) });
    }
    const server = await startTlsServer(tls, dir);
    const times = new Map<string, number[]>();
    try {
      for (const n of o.ns) {
        for (let run = 1; run <= o.runs; run++) {
          for (const { client, command } of ready) {
            if (o.signal?.aborted) throw errors.interrupted(String(o.signal.reason ?? 'signal'));
            o.onProgress?.(`${client.name} client, n=${n}, run ${run} of ${o.runs}`);
            let seconds: number;
            try {
              seconds = await timeOnce(command, server.url, n, tls.caFile, dir);
            } catch (error) {
              throw errors.targetStart(`${client.name} https client`, 'https-client', messageOf(error), error);
            }
            times.set(`${client.name} ${n}`, [...(times.get(`${client.name} ${n}`) ?? []), seconds]);
          }
        }
      }
    } finally {
      await server.stop();
    }
    return o.ns.flatMap((n) =>
      ready.map(({ client, version }) => ({ client: client.name, version, n, seconds: times.get(`${client.name} ${n}`) ?? [] })),
    );
  } finally {
    removeDir(dir);
  }
}
