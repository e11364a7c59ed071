// The dashboard's own process: forked by the runner before any load, it serves the live page from the run's journal
// and renders it there, so no request it answers costs the load generator's CPUs or event loop (the generator pins
// every thread of the runner's process, so a worker thread would share its CPUs). It exits when the runner says the
// run has ended (after a grace for the last poll) or when the runner is gone (its IPC channel closes).
import { messageOf } from '@bench/core';
import { DashboardPages } from './dashboard-pages.js';
import { serveDashboard } from './dashboard-http.js';
import type { DashboardMessage, RunnerMessage } from './dashboard-messages.js';

// After the run, the page is served this long more, so a page polling every second gets the final report.
const FINAL_GRACE_MS = 2500;

const [journal = '', portText = '0'] = process.argv.slice(2);
// the run's token comes in the environment, which only this user can read, never on the command line
const token = process.env.BENCH_DASHBOARD_TOKEN ?? '';
delete process.env.BENCH_DASHBOARD_TOKEN;
const tell = (message: DashboardMessage) => process.send?.(message);
let finished = false;

process.on('disconnect', () => process.exit(0));
try {
  if (token.length < 16) throw new Error('no token for the dashboard');
  const server = await serveDashboard(new DashboardPages(journal), Number(portText), () => finished, token);
  process.on('message', (message: RunnerMessage) => {
    if (message.type !== 'finish') return;
    finished = true;
    setTimeout(() => {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }, FINAL_GRACE_MS);
  });
  const address = server.address();
  tell({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
} catch (error) {
  tell({
    type: 'failed',
    code: (error as NodeJS.ErrnoException).code ?? '',
    message: messageOf(error),
  });
  process.exitCode = 1;
  process.disconnect?.();
}
