// What each layer of the wire engine adds to a request's client CPU, in steady state: from the floor (a libuv TCP handle
// that writes the request again on every read, nothing parsed or counted) up to a WireRun's connections with the run's
// tally, one layer at a time, in interleaved rounds. A plain Node server on CPU 0 answers; run it with the client on
// CPU 1, after `npm run build`:
//   taskset -c 1 node scripts/measure/wire-floor.mjs [connections=3000] [rounds=5]
// Each measurement is the client's CPU over 2 s once its connections are up (1.5 s after they were asked for), per
// answer: the connects, the first second and the run's finish are left out (scripts/measure/wire-cost.mjs counts them). Bare
// wrk -t1 runs in the same rounds, its CPU read from /proc over the same window (10 ms ticks) and its answers counted
// by the server.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { AnswerMemo } from '../../packages/engines/dist/wire/answer-memo.js';
import { bodyMatcher } from '../../packages/engines/dist/wire/body-matcher.js';
import { ResponseParser } from '../../packages/engines/dist/wire/response-parser.js';
import { WireConnection } from '../../packages/engines/dist/wire/wire-connection.js';
import { WireRun } from '../../packages/engines/dist/wire/wire-run.js';

const connections = Number(process.argv[2] ?? 3000);
const rounds = Number(process.argv[3] ?? 5);
const port = 18_000 + (process.pid % 1000);
const url = `http://127.0.0.1:${port}/`;
// the server counts its answers and tells the count when asked
const serve = `let n = 0; require('node:http').createServer((q, s) => (n++, s.end('Hello World'))).listen(${port}, '127.0.0.1');
process.on('message', () => process.send(n));`;
const server = spawn('taskset', ['-c', '0', process.execPath, '-e', serve], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
const served = () => new Promise((resolve) => (server.send('count'), server.once('message', resolve)));
await sleep(500);

const tcp = process.binding('tcp_wrap');
const stream = process.binding('stream_wrap');
const state = stream.streamBaseState;
const request = Buffer.from(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: bench\r\n\r\n`, 'latin1');
// at offset 0 of its own memory, as the engine's: the answer memo reads it by 4-byte words
const readBuffer = Buffer.from(new ArrayBuffer(65536));
let answers = 0;
// where the clock-reading layer keeps its readings, as the engine keeps the instant of a read
const instant = { ms: 0, ns: 0n };

// the floor, then the floor with the clock reads the engine makes per read, then with its parser on every read
const onRead = {
  floor() {
    if (state[stream.kReadBytesOrError] > 0) {
      answers++;
      this.writeBuffer(this.writeRequest, request);
    }
  },
  clocks() {
    if (state[stream.kReadBytesOrError] > 0) {
      instant.ms = performance.now();
      instant.ns = process.hrtime.bigint();
      answers++;
      instant.ms = performance.now();
      this.writeBuffer(this.writeRequest, request);
    }
  },
  parser() {
    const bytes = state[stream.kReadBytesOrError];
    if (bytes > 0) {
      this.parser.feed(readBuffer, bytes);
      answers++;
      this.writeBuffer(this.writeRequest, request);
    }
  },
};
const nobody = { parsedAnswer() {} };

function handles(read) {
  const all = [];
  for (let i = 0; i < connections; i++) {
    const handle = new tcp.TCP(tcp.constants.SOCKET);
    handle.useUserBuffer(readBuffer);
    handle.onread = read;
    handle.parser = new ResponseParser(bodyMatcher({ kind: 'any' }), nobody, false);
    handle.writeRequest = new stream.WriteWrap();
    handle.writeRequest.handle = handle;
    handle.writeRequest.oncomplete = () => {};
    const connect = new tcp.TCPConnectWrap();
    connect.oncomplete = () => {
      handle.setNoDelay(true);
      handle.readStart();
      handle.writeBuffer(handle.writeRequest, request);
    };
    handle.connect(connect, '127.0.0.1', port);
    all.push(handle);
  }
  return () => all.forEach((handle) => handle.close());
}

// the engine's connections (socket, parser, ring of send times), each answer sending the next
const again = { connected: (c) => c.send(1), answered: (c) => (answers++, c.send(1)), failed() {}, ended() {} };
function wireConnections() {
  const setup = {
    host: '127.0.0.1',
    port,
    request,
    matcher: () => bodyMatcher({ kind: 'any' }),
    headOnly: false,
    depth: 1,
    readBuffer,
    memo: new AnswerMemo(readBuffer),
    events: again,
  };
  const all = Array.from({ length: connections }, () => new WireConnection(setup));
  return () => all.forEach((c) => c.close());
}

// the same through a WireRun: connect and first-byte times, and every answer counted in the run's tally
function wireRun() {
  const plan = {
    url,
    request: { method: 'GET', path: '/', headers: {} },
    expect: { kind: 'any' },
    shape: { connections, durationSeconds: 4, keepAlive: true, timeoutSeconds: 10 },
  };
  const run = new WireRun(plan, { index: 0, count: 1, startAtNs: process.hrtime.bigint() });
  for (let i = 0; i < connections; i++) run.open(again);
  return () => run.finish(process.hrtime.bigint(), 4);
}

// bare wrk: its CPU ticks (user + system, /proc/PID/stat fields 14 and 15) and the server's count over the window
const ticks = (pid) =>
  readFileSync(`/proc/${pid}/stat`, 'utf8')
    .split(') ')[1]
    .split(' ')
    .slice(11, 13)
    .map(Number)
    .reduce((a, b) => a + b);
async function wrk() {
  const tool = spawn('wrk', ['-t1', `-c${connections}`, '-d5s', url], { stdio: 'ignore' });
  const exited = new Promise((resolve) => tool.once('exit', resolve));
  await sleep(1500);
  const [ticksBefore, before] = [ticks(tool.pid), await served()];
  await sleep(2000);
  const [ticksAfter, after] = [ticks(tool.pid), await served()];
  await exited;
  await sleep(300);
  return ((ticksAfter - ticksBefore) * 10_000) / (after - before);
}

const layers = {
  'bare wrk': wrk,
  floor: () => handles(onRead.floor),
  '+ clocks': () => handles(onRead.clocks),
  '+ parser': () => handles(onRead.parser),
  WireConnection: wireConnections,
  '+ WireRun tally': wireRun,
};
const costs = Object.fromEntries(Object.keys(layers).map((name) => [name, []]));

async function measure(name) {
  if (name === 'bare wrk') return costs[name].push(await wrk());
  const close = layers[name]();
  await sleep(1500);
  const before = process.cpuUsage();
  const from = answers;
  await sleep(2000);
  const used = process.cpuUsage(before);
  costs[name].push((used.user + used.system) / (answers - from));
  close();
  await sleep(300);
}

// a first pass warms the code up and is not counted; then the order alternates by round
for (const name of Object.keys(layers)) await measure(name);
for (const name of Object.keys(costs)) costs[name] = [];
for (let round = 0; round < rounds; round++)
  for (const name of round % 2 ? Object.keys(layers).reverse() : Object.keys(layers)) await measure(name);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`c=${connections}, ${rounds} rounds: client CPU per answer in steady state, µs`);
for (const [name, values] of Object.entries(costs))
  console.log(`  ${name.padEnd(16)} ${values.map((v) => v.toFixed(1)).join('  ')}  median ${median(values).toFixed(2)}`);
server.kill();
process.exit(0);
