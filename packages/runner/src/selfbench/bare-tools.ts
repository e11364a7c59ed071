import { createRequire } from 'node:module';
import path from 'node:path';
import { engineBinary, runExternal } from '@bench/engines';

const require = createRequire(import.meta.url);

/** What a load tool reported about itself, run bare (no bench around it). */
export interface BareResult {
  readonly rps: number;
  readonly requests: number;
  /** The tool's CPU, seconds, sampled by its pid. */
  readonly cpuSeconds: number;
}

interface BareTool {
  /** The command line, run exactly as a user would type it. */
  args(url: string, connections: number, seconds: number, threads: number): { command: string; args: string[] };
  /** Requests per second as the tool printed it. */
  parse(stdout: string): { rps: number; requests: number } | undefined;
}

const number = (text: string, pattern: RegExp) => {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : undefined;
};

/** Each engine's tool as its users run it: autocannon's CLI, wrk -t1, ab -k. */
export const bareTools: Readonly<Record<string, BareTool>> = {
  autocannon: {
    args: (url, c, d, threads) => ({
      command: process.execPath,
      args: [
        path.join(path.dirname(require.resolve('autocannon/package.json')), 'autocannon.js'),
        '-c',
        String(c),
        '-d',
        String(d),
        // autocannon's own worker threads, as bench's --client-threads
        ...(threads > 1 ? ['-w', String(threads)] : []),
        '-j',
        url,
      ],
    }),
    parse(stdout) {
      const json = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { requests: { total: number }; duration: number };
      return { rps: json.requests.total / json.duration, requests: json.requests.total };
    },
  },
  wrk: {
    args: (url, c, d) => ({ command: engineBinary('wrk') ?? 'wrk', args: ['-t1', `-c${c}`, `-d${d}s`, url] }),
    parse(stdout) {
      const rps = number(stdout, /^Requests\/sec:\s+([\d.]+)/m);
      const requests = number(stdout, /^\s*(\d+) requests in/m);
      return rps !== undefined && requests !== undefined ? { rps, requests } : undefined;
    },
  },
  ab: {
    args: (url, c, d) => ({
      command: engineBinary('ab') ?? 'ab',
      args: ['-k', '-c', String(c), '-t', String(d), '-n', String(d * 100_000), '-q', url],
    }),
    parse(stdout) {
      const rps = number(stdout, /^Requests per second:\s+([\d.]+)/m);
      const requests = number(stdout, /^Complete requests:\s+(\d+)/m);
      return rps !== undefined && requests !== undefined ? { rps, requests } : undefined;
    },
  },
};

/** Runs one bare tool against a running server, pinned to `cpus`. */
export async function runBare(
  engine: string,
  url: string,
  connections: number,
  seconds: number,
  cpus?: string,
  threads = 1,
): Promise<BareResult> {
  const tool = bareTools[engine];
  if (!tool) throw new Error(`no bare tool for engine ${engine}`);
  const { command, args } = tool.args(url, connections, seconds, threads);
  const run = await runExternal(command, args, { name: `${engine}-bare`, ...(cpus ? { cpus } : {}) });
  const parsed = tool.parse(run.stdout);
  if (!parsed) throw new Error(`${engine} printed no result: ${run.outputTail}`);
  const cpuSeconds = ((run.client?.cpuPercent ?? 0) / 100) * seconds;
  return { ...parsed, cpuSeconds };
}
