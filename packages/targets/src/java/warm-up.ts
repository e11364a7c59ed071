import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { ResponseCounter } from './http-responses.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** How a JVM is driven after start, before it is handed to the run. */
export interface WarmUpPolicy {
  readonly connections: number;
  readonly windowSeconds: number;
  readonly minSeconds: number;
  readonly maxSeconds: number;
  /** A window that answers no more than this much above the best before it is a window without gain. */
  readonly plateauGain: number;
  /** Windows in a row without gain that mean the JIT has settled. */
  readonly settledWindows: number;
}

/**
 * Measured on hello (README): rps climbs for 5-8 s of full load after start (4-6k in the first
 * second, 36-44k from the sixth to the eighth) while HotSpot compiles the request path. So the JVM
 * is driven until two 1 s windows in a row answer no more than 5% above the best window before
 * them, 3 s at least, 20 s at most. BENCH_JAVA_WARMUP=0 turns it off, to measure a cold JVM.
 */
export const JIT_WARM_UP: WarmUpPolicy = {
  connections: 4,
  windowSeconds: 1,
  minSeconds: 3,
  maxSeconds: 20,
  plateauGain: 0.05,
  settledWindows: 2,
};

export const jitWarmUpEnabled = (): boolean => process.env.BENCH_JAVA_WARMUP !== '0';

export interface WarmUpDone {
  readonly requests: number;
  readonly seconds: number;
  /** Answered requests per window, in order. */
  readonly windows: readonly number[];
}

interface Connection {
  readonly done: Promise<void>;
  /** Ends the connection once its request in flight is answered; a server that never answers is cut off. */
  finish(): void;
}

/**
 * One keep-alive connection sending the next GET as soon as the last is answered, the shape of the
 * load that follows (no pipelining). Written on a bare socket rather than node:http, so the client
 * costs the shared cores little; reconnects when the server closes (Tomcat: after 1000 requests).
 */
/**
 * A socket to the server, ready once `ready` fires: plain TCP, or over an https URL TLS verified against the run's CA
 * speaking HTTP/1.1 (every TLS connector of the containers also takes HTTP/1.1, the h2 ones by ALPN).
 */
function open(url: URL, ca: Buffer | undefined): { socket: net.Socket; ready: 'connect' | 'secureConnect' } {
  if (url.protocol !== 'https:') return { socket: net.connect(Number(url.port), url.hostname), ready: 'connect' };
  const socket = tls.connect({ host: url.hostname, port: Number(url.port), ...(ca ? { ca } : {}), ALPNProtocols: ['http/1.1'] });
  return { socket, ready: 'secureConnect' };
}

function keepAliveConnection(url: URL, counter: ResponseCounter, running: () => boolean, ca: Buffer | undefined): Connection {
  const request = Buffer.from(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`, 'latin1');
  let socket: net.Socket | undefined;
  let waiting = false;
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const connect = () => {
    const responses = new ResponseCounter();
    const { socket: current, ready } = open(url, ca);
    socket = current;
    const send = () => {
      if (running()) {
        waiting = true;
        current.write(request);
      } else current.end();
    };
    current.on(ready, send);
    current.on('data', (data: Buffer) => {
      const before = responses.answered;
      responses.push(data);
      counter.answered += responses.answered - before;
      counter.errors += responses.errors;
      responses.errors = 0;
      if (responses.answered > before) {
        waiting = false;
        send();
      }
    });
    // a connection that never got an answer means the server is gone; one reset later is replaced
    current.on('error', () => {
      if (responses.answered === 0) counter.errors++;
    });
    current.on('close', () => (running() ? connect() : resolveDone()));
  };
  connect();
  return {
    done,
    finish() {
      if (!waiting) socket?.end();
      setTimeout(() => socket?.destroy(), 5000).unref();
    },
  };
}

/** Drives `url` until the throughput stops rising (within the policy's bounds), or an answer is an error. */
export async function warmUp(url: string, policy: WarmUpPolicy, caFile?: string): Promise<WarmUpDone> {
  const ca = caFile ? readFileSync(caFile) : undefined;
  const counter = new ResponseCounter();
  const started = Date.now();
  const windows: number[] = [];
  let stop = false;
  const running = () => !stop && counter.errors === 0;
  const connections = Array.from({ length: policy.connections }, () => keepAliveConnection(new URL(url), counter, running, ca));
  let last = 0;
  let best = 0;
  let withoutGain = 0;
  while (running()) {
    await sleep(policy.windowSeconds * 1000);
    const current = counter.answered - last;
    last = counter.answered;
    windows.push(current);
    withoutGain = current > best * (1 + policy.plateauGain) ? 0 : withoutGain + 1;
    best = Math.max(best, current);
    const elapsed = (Date.now() - started) / 1000;
    if (elapsed >= policy.maxSeconds || (elapsed >= policy.minSeconds && withoutGain >= policy.settledWindows)) stop = true;
  }
  stop = true;
  for (const connection of connections) connection.finish();
  await Promise.all(connections.map((c) => c.done));
  return { requests: counter.answered, seconds: Math.round((Date.now() - started) / 100) / 10, windows };
}
