import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleProcessGroups, sampleSelf } from './resource-sampler.js';

/** Seconds of user + system CPU in the second line of `times` (the shell's children). */
function childSeconds(times: string): number {
  const line = times.trim().split('\n')[1] ?? '';
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, minutes, seconds]) => sum + Number(minutes) * 60 + Number(seconds), 0);
}

describe('sampleProcessGroups', () => {
  it('counts the CPU of children that live and die between two samples (a CGI per request)', async () => {
    // a parent that runs 20 short busy children one after another, each well under the 250 ms tick, then reports their
    // CPU (`times`) and waits: a fixed amount of work, so a starved machine (an idle-class lane) stretches it, not shrinks it
    // (it starts them once told to: children reaped before the sampler first saw their parent are not its to count);
    // looks every 20 ms catch most children mid-run: what they had used when first seen is theirs to count too
    const script = "read go; for k in $(seq 20); do sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'; done; times; read x";
    const child = spawn('sh', ['-c', script], { detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
    await once(child, 'spawn');
    const startedAt = performance.now();
    const sampler = sampleProcessGroups({ server: [child.pid!] }, 20);
    child.stdin.write('go\n');
    let times = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (times += chunk));
    while (times.trim().split('\n').length < 2) await once(child.stdout, 'data');
    const { server } = sampler.stop();
    const counted = ((server?.cpuPercent ?? 0) / 100) * ((performance.now() - startedAt) / 1000);
    child.stdin.end();
    await once(child, 'exit');
    // without the reaped children's time (moved into the parent's cutime) it read near 0
    expect(childSeconds(times)).toBeGreaterThan(0.1);
    expect(counted).toBeGreaterThan(childSeconds(times) * 0.95);
  }, 60_000);
});

describe('sampleSelf', () => {
  afterEach(() => vi.useRealTimers());

  it("reads each second's CPU, and the last second as the run ends when half of it or more has gone by", () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'hrtime'] });
    const sampler = sampleSelf();
    vi.advanceTimersByTime(1600);
    // one whole second from the interval, and the 0.6 s since, over the time it ran
    expect(sampler.perSecond()).toHaveLength(2);
    vi.advanceTimersByTime(300);
    // 0.9 s into the second: still one reading for it, not two
    expect(sampler.perSecond()).toHaveLength(2);
    vi.advanceTimersByTime(200);
    // the interval read the second whole; 0.1 s of the next is too little to report
    expect(sampler.perSecond()).toHaveLength(2);
    sampler.stop();
  });
});
