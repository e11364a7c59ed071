import { describe, expect, it } from 'vitest';
import { DatabaseWindows } from './database-windows.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("turns at the run's database", () => {
  it('runs shared turns together and an exclusive one alone, first come first served', async () => {
    const windows = new DatabaseWindows();
    const log: string[] = [];
    const turn = (name: string, exclusive: boolean) =>
      (exclusive ? windows.exclusive.bind(windows) : windows.shared.bind(windows))(async () => {
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
      });
    await Promise.all([turn('a', false), turn('b', false), turn('X', true), turn('c', false), turn('Y', true)]);
    expect(log).toEqual(['a+', 'b+', 'a-', 'b-', 'X+', 'X-', 'c+', 'c-', 'Y+', 'Y-']);
  });

  it('gives the turn on when work fails', async () => {
    const windows = new DatabaseWindows();
    await expect(windows.exclusive(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await windows.exclusive(async () => 'next')).toBe('next');
  });
});
