import { describe, expect, it } from 'vitest';
import { splitChildCpu } from './bare-tool.js';

describe("a bare tool's output", () => {
  it('gives back what the tool printed and its CPU from the `times` lines after the mark', () => {
    const stdout = 'Requests/sec: 100.5\n  500 requests in 5.00s\n\nbench-bare-cpu\n0m0.001s 0m0.002s\n0m1.250s 1m2.500s\n';
    expect(splitChildCpu(stdout)).toEqual({ output: 'Requests/sec: 100.5\n  500 requests in 5.00s\n', cpuSeconds: 63.75 });
  });

  it('gives the output whole, and no CPU, when the mark is missing or its lines are cut short', () => {
    expect(splitChildCpu('{"requests":1}\n')).toEqual({ output: '{"requests":1}\n' });
    expect(splitChildCpu('x\n\nbench-bare-cpu\n')).toEqual({ output: 'x\n' });
  });
});
