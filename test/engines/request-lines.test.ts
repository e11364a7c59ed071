import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// Every engine sends a scenario's request as the scenario says it, byte for byte where it matters: a config scenario
// whose path holds a space (`/search?q=new york`) and a header of its own, driven by each engine against an app
// server of the test's own that records each request line and that header as it read them, raw.
const HOSTILE = `abc 123 "q" 'a' \\n ]] [[ \${x} %s \`t\``;
const HOSTILE_BODY = `${HOSTILE}\r\nsecond line, ü €`;
const dir = testTempDir('request-lines');
const log = path.join(dir, 'requests.jsonl');
const server = `
import net from 'node:net';
import { appendFileSync } from 'node:fs';
net.createServer((socket) => {
  let buffered = Buffer.alloc(0);
  socket.on('error', () => {});
  socket.on('data', (data) => {
    buffered = Buffer.concat([buffered, data]);
    for (;;) {
      const end = buffered.indexOf('\\r\\n\\r\\n');
      if (end < 0) return;
      const [line, ...headers] = buffered.subarray(0, end).toString('latin1').split('\\r\\n');
      const length = Number(headers.find((h) => /^content-length:/i.test(h))?.split(':')[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      const body = buffered.subarray(end + 4, end + 4 + length).toString('base64');
      buffered = buffered.subarray(end + 4 + length);
      const trace = headers.find((h) => h.toLowerCase().startsWith('x-trace:'));
      appendFileSync(${JSON.stringify(log)}, JSON.stringify({ line, trace, body }) + '\\n');
      const closing = line.endsWith('HTTP/1.0');
      socket.write('HTTP/1.1 200 OK\\r\\nDate: ' + new Date().toUTCString() + '\\r\\nContent-Type: text/plain\\r\\nContent-Length: 2\\r\\n' + (closing ? 'Connection: close\\r\\n' : '') + '\\r\\nok');
      if (closing) socket.end();
    }
  });
}).listen(Number(process.env.PORT), process.env.HOST);
`;
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'server.mjs'), server);
writeFileSync(
  path.join(dir, 'bench.config.json'),
  JSON.stringify({
    targets: [{ name: 'recorder', command: process.execPath, args: ['server.mjs'], ready: { path: '/health' } }],
    // a header value hostile to each carrier's language: quotes, a backslash, Lua's long bracket, a JS template, a percent
    scenarios: [
      { name: 'search', path: '/search?q=new york&tag=a+b', headers: { 'X-Trace': HOSTILE } },
      // and a body: the same, on two lines (CR LF), and bytes past ASCII
      { name: 'post', method: 'POST', path: '/post', body: HOSTILE_BODY },
    ],
  }),
);

const engines: Array<[string, string[]]> = [
  ['autocannon', ['-n', '20']],
  ['wrk', ['-d', '0.5']],
  ['ab', ['-n', '20']],
  ['wire', ['-n', '20']],
  ['open-loop', ['--rate', '40', '-d', '0.5']],
  ['k6', ['-n', '20']],
];

describe("every engine's request line", () => {
  for (const [engine, bound] of engines) {
    it(`${engine} sends the scenario's path percent-encoded as verification does, and a hostile header as written`, async () => {
      writeFileSync(log, '');
      const run = await runCli(['run', 'search', '-t', 'recorder', '--engine', engine, '-c', '1', '-w', '0', ...bound], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const requests = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { line: string; trace?: string; body: string })
        .filter((r) => !r.line.startsWith('GET /health'));
      expect(requests.length).toBeGreaterThan(2);
      // ab speaks HTTP/1.0; every other engine, and verification, HTTP/1.1
      const lines = [...new Set(requests.map((r) => r.line.replace(/ HTTP\/1\.[01]$/, '')))];
      expect(lines).toEqual(['GET /search?q=new%20york&tag=a+b']);
      expect([...new Set(requests.map((r) => r.trace?.replace(/^x-trace:\s*/i, '')))]).toEqual([HOSTILE]);
    });

    it(`${engine} sends a hostile body byte for byte`, async () => {
      writeFileSync(log, '');
      const run = await runCli(['run', 'post', '-t', 'recorder', '--engine', engine, '-c', '1', '-w', '0', ...bound], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const requests = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { line: string; body: string })
        .filter((r) => !r.line.startsWith('GET /health'));
      expect(requests.length).toBeGreaterThan(2);
      expect([...new Set(requests.map((r) => r.line.replace(/ HTTP\/1\.[01]$/, '')))]).toEqual(['POST /post']);
      expect([...new Set(requests.map((r) => Buffer.from(r.body, 'base64').toString('utf8')))]).toEqual([HOSTILE_BODY]);
    });
  }
});
