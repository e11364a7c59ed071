// Entry point of the Node targets' server process: one Fastify app, or a node:cluster primary
// that forks one such app per worker. Started by node-target.ts, never by hand.
import cluster from 'node:cluster';
import { NODE_SERVER_ENV, READY_LINE, type NodeServerConfig } from './server-config.js';

const config = JSON.parse(process.env[NODE_SERVER_ENV] ?? '{}') as NodeServerConfig;

function runPrimary(): void {
  let listening = 0;
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('listening', () => {
    if (++listening === config.workers) console.log(READY_LINE);
  });
  // A worker that dies is not replaced: the run must see the failure, not a silently smaller cluster.
  cluster.on('exit', (worker, code, signal) => {
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); stopping the cluster`);
    process.exit(1);
  });
}

if (config.workers > 0 && cluster.isPrimary) {
  runPrimary();
} else {
  // the app's modules load here, in each process that serves: a primary that only forks leaves out their CPU at each
  // start and their memory in the stack's RSS
  import('./serve-app.js')
    .then(({ serveOneProcess }) => serveOneProcess(config))
    .then(
      () => {
        if (config.workers === 0) console.log(READY_LINE);
      },
      (error: unknown) => {
        console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
        process.exit(1);
      },
    );
}
