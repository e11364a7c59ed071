#!/usr/bin/env node
// What --profile costs a server: runs the same cells with and without it, alternating (ABAB...), and prints each
// target's median rps either way and the median of the per-pair ratios.
// Usage: node scripts/measure/profile-cost.mjs [pairs=3] [targets=node,node-cluster,java-tomcat] [more bench run flags...]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'runner', 'bin', 'bench.js');
const [pairs = '3', targets = 'node,node-cluster,java-tomcat', ...more] = process.argv.slice(2);
const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-cost-'));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rps = { off: new Map(), on: new Map() };
try {
  for (let pair = 1; pair <= Number(pairs); pair++) {
    for (const side of ['off', 'on']) {
      const out = path.join(dir, `${side}-${pair}.json`);
      const args = [
        'run',
        'hello',
        '-t',
        targets,
        '-c',
        '50',
        '-d',
        '5',
        '--engine',
        'wire',
        '--cpus',
        'server=0,client=1',
        '-r',
        'json',
        '-o',
        out,
        ...more,
      ];
      execFileSync(process.execPath, [cli, ...args, ...(side === 'on' ? ['--profile'] : [])], { stdio: ['ignore', 'ignore', 'inherit'] });
      for (const r of JSON.parse(readFileSync(out, 'utf8')).results) rps[side].set(r.target, [...(rps[side].get(r.target) ?? []), r.rps]);
    }
  }
  console.log('| target | rps without --profile | rps with --profile | change (median of the pairs) |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [target, off] of rps.off) {
    const on = rps.on.get(target) ?? [];
    const ratios = off.map((value, i) => (on[i] ?? 0) / value);
    const change = (median(ratios) - 1) * 100;
    console.log(`| ${target} | ${Math.round(median(off))} | ${Math.round(median(on))} | ${change > 0 ? '+' : ''}${change.toFixed(1)}% |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
