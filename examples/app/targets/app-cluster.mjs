// A target plugin of the app's own: the same server with one process per core. bench calls
// available() and supports() to plan, start() for each scenario, and stop() when done.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { choosePort, describeExit, spawnGroup, waitForHttp } from '@bench/runner';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const workers = os.availableParallelism();

export default {
  name: 'app-cluster',
  language: 'node',
  description: `the example app, ${workers} processes (node:cluster)`,
  supports: (scenario) => (scenario.folder ? { ok: false, reason: "serves the app's own routes only" } : { ok: true }),
  available: async () => ({ ok: true, versions: { node: process.versions.node } }),
  async start(scenario, options) {
    const port = await choosePort(options.port);
    const url = `http://127.0.0.1:${port}`;
    // a process group of its own: bench stops it (and its workers) whatever happens to the run
    const server = spawnGroup(process.execPath, ['server.mjs'], {
      name: 'app-cluster',
      cwd: appDir,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WORKERS: String(workers) },
    });
    let stopping = false;
    try {
      await waitForHttp(`${url}/health`, { processes: [server], timeoutMs: 10_000 });
    } catch (error) {
      await server.stop();
      throw error;
    }
    return {
      url,
      processGroups: [server.pid],
      settings: { workers },
      crashed: server.exited.then((exit) => (stopping ? new Promise(() => {}) : describeExit(server, exit))),
      async stop() {
        stopping = true;
        await server.stop();
      },
    };
  },
};
