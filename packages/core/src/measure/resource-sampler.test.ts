import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sampleProcessGroups } from './resource-sampler.js';

describe('sampleProcessGroups', () => {
  it('counts the CPU of children that live and die between two samples (a CGI per request)', async () => {
    // a parent that runs short busy children one after another for about 2 s: each lives well under the 250 ms tick
    const script =
      "end=$(($(date +%s%N)/1000000+2000)); while [ $(($(date +%s%N)/1000000)) -lt $end ]; do sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done'; done";
    const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
    const sampler = sampleProcessGroups({ server: [child.pid!] });
    await once(child, 'exit');
    const { server } = sampler.stop();
    // the loop keeps about one core busy (less on a busy machine); without the reaped children's time it read near 0
    expect(server?.cpuPercent).toBeGreaterThan(5);
  }, 10_000);
});
