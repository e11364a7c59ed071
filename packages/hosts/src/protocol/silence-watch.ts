export interface SilenceWatch {
  /** The other side said something. */
  heard(): void;
  stop(): void;
}

/**
 * Calls `onSilent` once the other side has said nothing for `limitMs` of this process's own waking time. A stall of
 * our own event loop (a synchronous call, a starved CPU on a busy machine) counts as two ticks at most: what the
 * other side sent meanwhile sits unread in the pipe, and is read just after this timer's turn.
 */
export function watchSilence(limitMs: number, tickMs: number, onSilent: () => void): SilenceWatch {
  let silent = 0;
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    silent += Math.min(now - last, 2 * tickMs);
    last = now;
    if (silent > limitMs) {
      clearInterval(timer);
      onSilent();
    }
  }, tickMs);
  timer.unref();
  return {
    heard: () => {
      silent = 0;
    },
    stop: () => clearInterval(timer),
  };
}
