import { type GroupProcess, packageFile, spawnGroup } from '@bench/core';
import { waitForOutput } from '@bench/core';
import type { TlsMaterial } from '@bench/core';

const serverMain = packageFile(import.meta.url, 'dist', 'https-clients', 'tls-server-main.js');

/** The page every client fetches: one line, so a client that reads line by line (Java's) prints it unchanged. */
export const HTTPS_CLIENT_PAGE = '<html><head><title>bench</title></head><body>bench https-client page</body></html>';

export interface RunningTlsServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Node's https server in a process group of its own, serving the page with the run's certificate. */
export async function startTlsServer(tls: TlsMaterial, dir: string): Promise<RunningTlsServer> {
  const proc: GroupProcess = spawnGroup(process.execPath, [serverMain, tls.certFile, tls.keyFile, HTTPS_CLIENT_PAGE], {
    name: 'tls-server',
    cwd: dir,
  });
  try {
    await waitForOutput(proc, /port \d+/, 10_000);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  const port = /port (\d+)/.exec(proc.outputTail())?.[1];
  return { url: `https://127.0.0.1:${port}/`, stop: () => proc.stop() };
}
