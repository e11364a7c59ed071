import { choosePort, type TargetPlugin } from '@bench/core';
import { makeStackDir, startStack } from '@bench/targets';

// A tiny HTTP server in one `node -e` process: answers Hello World, then behaves as told.
function serverScript(behaviour: 'exit-at-start' | 'die-after-ms' | 'wrong-body', ms = 0): string {
  const body = behaviour === 'wrong-body' ? 'Goodbye' : 'Hello World';
  return [
    behaviour === 'exit-at-start' ? "console.error('cannot open config: /nonexistent/app.conf'); process.exit(3);" : '',
    "const http = require('node:http');",
    `http.createServer((q, r) => { r.setHeader('content-type', 'text/plain'); r.end('${body}'); }).listen(Number(process.env.PORT), '127.0.0.1');`,
    behaviour === 'die-after-ms' ? `setTimeout(() => { console.error('out of memory (simulated)'); process.exit(1); }, ${ms});` : '',
  ].join('\n');
}

/** A target whose server misbehaves on purpose, to test what the runner does about it. */
export function misbehavingTarget(name: string, behaviour: 'exit-at-start' | 'die-after-ms' | 'wrong-body', ms = 0): TargetPlugin {
  return {
    name,
    language: 'test',
    description: `a server that ${behaviour}`,
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
          { name, command: process.execPath, args: ['-e', serverScript(behaviour, ms)], env: { ...process.env, PORT: String(port) } },
        ],
        settings: {},
        readyTimeoutMs: 5000,
      });
    },
  };
}
