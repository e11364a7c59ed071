import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchSilence } from './silence-watch.js';

describe('watchSilence', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls a side that says nothing for the limit silent, once', () => {
    const silent = vi.fn();
    watchSilence(1000, 100, silent);
    vi.advanceTimersByTime(1000);
    expect(silent).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(silent).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(silent).toHaveBeenCalledTimes(1);
  });

  it('starts over whenever the other side is heard', () => {
    const silent = vi.fn();
    const watch = watchSilence(1000, 100, silent);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(800);
      watch.heard();
    }
    expect(silent).not.toHaveBeenCalled();
    watch.stop();
  });

  it('does not take a stall of its own event loop for the other side silence', () => {
    const silent = vi.fn();
    const watch = watchSilence(1000, 100, silent);
    // ten seconds pass while this process's loop is blocked: one late tick, then the pipe's lines are read
    vi.setSystemTime(Date.now() + 10_000);
    vi.advanceTimersByTime(100);
    expect(silent).not.toHaveBeenCalled();
    watch.heard();
    vi.advanceTimersByTime(900);
    expect(silent).not.toHaveBeenCalled();
    watch.stop();
  });
});
