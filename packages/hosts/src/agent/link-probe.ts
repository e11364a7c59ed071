import net from 'node:net';

/** What the probe writes at a time: large enough that a fast link is not bounded by the writes' count. */
const CHUNK = Buffer.alloc(256 * 1024);
/** A probe nobody connects to closes after this long. */
const UNCLAIMED_MS = 10_000;

/**
 * The agent's end of a link measurement: a port on `address` whose first connection gets zeros for `milliseconds`,
 * as fast as the link takes them, then the close; the port closes with it (or unclaimed, after ten seconds).
 */
export function serveLinkProbe(address: string, milliseconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer({ pauseOnConnect: false }, (socket) => {
      server.close();
      clearTimeout(unclaimed);
      socket.on('error', () => socket.destroy());
      const until = Date.now() + milliseconds;
      const pump = () => {
        while (Date.now() < until) if (!socket.write(CHUNK)) return void socket.once('drain', pump);
        socket.end();
      };
      pump();
    });
    const unclaimed = setTimeout(() => server.close(), UNCLAIMED_MS);
    unclaimed.unref();
    server.once('error', reject);
    server.listen(0, address, () => {
      const bound = server.address();
      resolve(typeof bound === 'object' && bound ? bound.port : 0);
    });
  });
}

/** The runner's end: reads the probe until it closes; bytes a second between the first byte and the last. */
export function readLinkProbe(host: string, port: number, timeoutMs = 15_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let bytes = 0;
    let first: bigint | undefined;
    let last = 0n;
    const timer = setTimeout(() => socket.destroy(new Error(`the link probe did not end in ${timeoutMs / 1000} s`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      const now = process.hrtime.bigint();
      // the first chunk's bytes arrived before the clock started: counted from the second on
      if (first === undefined) first = now;
      else bytes += chunk.length;
      last = now;
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const seconds = first === undefined ? 0 : Number(last - first) / 1e9;
      resolve(seconds > 0 ? bytes / seconds : 0);
    });
  });
}
