import { choosePort, type TargetPlugin } from '@bench/core';
import { makeStackDir, startStack } from '@bench/targets';

// Servers in one `node -e` process whose answers wait (5 ms a request, a timer: the CPU stays idle) in three ways:
// - pool: a pool of workers that starts empty; a request finding no idle worker starts one, which takes 1 s
//   (mod_fcgid and FPM's ondemand do that), and the worker then stays;
// - steady: the same answers, never a start-up wait;
// - rising: answers take 50 ms at the first request, falling to 5 ms over 3 s (a stack warming up), then stay.
export type WaitingBehaviour = 'pool' | 'steady' | 'rising';

function serverScript(behaviour: WaitingBehaviour): string {
  return `
const http = require('node:http');
let idle = 0;
let first;
const answer = (r) => { r.setHeader('content-type', 'text/plain'); r.end('Hello World'); };
http.createServer((q, r) => {
  if (${JSON.stringify(behaviour)} === 'pool') {
    const started = idle > 0;
    if (started) idle--;
    setTimeout(() => { answer(r); idle++; }, started ? 5 : 1000);
  } else if (${JSON.stringify(behaviour)} === 'rising') {
    first ??= Date.now();
    const rising = Math.max(0, 3000 - (Date.now() - first)) / 3000;
    setTimeout(() => answer(r), 5 + 45 * rising);
  } else setTimeout(() => answer(r), 5);
}).listen(Number(process.env.PORT), '127.0.0.1');`;
}

/** A target whose answers wait as told, to test what the runner says about waiting stacks. */
export function waitingTarget(name: string, behaviour: WaitingBehaviour): TargetPlugin {
  return {
    name,
    language: 'test',
    description: `a server whose answers wait (${behaviour})`,
    supports: () => ({ ok: true }),
    available: async () => ({ ok: true }),
    async start(scenario, options) {
      const port = await choosePort(options.port);
      return startStack({
        target: name,
        scenario,
        port,
        dir: makeStackDir(name),
        processes: [
          { name, command: process.execPath, args: ['-e', serverScript(behaviour)], env: { ...process.env, PORT: String(port) } },
        ],
        settings: {},
        readyTimeoutMs: 5000,
      });
    },
  };
}
