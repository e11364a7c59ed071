import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A wrapper of a test server that, when bench stops it (SIGTERM or SIGINT), fetches `statsPath` from it and writes the
 * answer to DIR/received.json: what the server itself counted, read after the run.
 */
export function recordOnExit(dir: string, server: string, statsPath: string): { wrapper: string; received: string } {
  const wrapper = path.join(dir, 'recorder.mjs');
  const received = path.join(dir, 'received.json');
  writeFileSync(
    wrapper,
    `import { writeFileSync } from 'node:fs';
const stop = async () => {
  const answer = await fetch('http://127.0.0.1:' + process.env.PORT + ${JSON.stringify(statsPath)});
  writeFileSync(${JSON.stringify(received)}, await answer.text());
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
await import(${JSON.stringify(server)});
`,
  );
  return { wrapper, received };
}
