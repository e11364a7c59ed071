import { mergeLiveSeconds, type LiveSecond, type MergedLiveSecond } from '@bench/core';

/** Seconds ready to send: whole ones, and shares of seconds already sent that came too late to be merged into them. */
export interface AssembledSeconds {
  readonly whole: readonly MergedLiveSecond[];
  readonly late: readonly MergedLiveSecond[];
}

/**
 * Gathers the threads' shares of each second of a measured run into whole seconds. A second is whole once every
 * thread has told its share, or once a share two seconds newer has come (a thread that owed one is not coming). A
 * share of a second already sent is kept apart, never sent again under the same series and time: a receiver refuses
 * a second sample of a series at one timestamp (Prometheus answers 400 and the whole batch is lost).
 */
export class SecondAssembler {
  private shares = new Map<number, LiveSecond[]>();
  private readonly sent = new Set<number>();
  private newest = -Infinity;

  /** `threads`: how many shares make a whole second (the generator's threads). */
  constructor(private readonly threads: number) {}

  add(shares: readonly LiveSecond[]): AssembledSeconds {
    const late: LiveSecond[] = [];
    for (const share of shares) {
      this.newest = Math.max(this.newest, share.t);
      if (this.sent.has(share.t)) late.push(share);
      else this.shares.set(share.t, [...(this.shares.get(share.t) ?? []), share]);
    }
    const ready = [...this.shares].filter(([t, parts]) => parts.length >= this.threads || t <= this.newest - 2).map(([t]) => t);
    return { whole: this.take(ready), late: mergeLiveSeconds(late) };
  }

  /** The measured run ended: every second still held, whole or not. */
  finish(): MergedLiveSecond[] {
    return this.take([...this.shares.keys()]);
  }

  /** Whether this second was sent (a series the engine hands over at the end needs it only when it was not). */
  has(t: number): boolean {
    return this.sent.has(t);
  }

  private take(seconds: readonly number[]): MergedLiveSecond[] {
    const taken = seconds.flatMap((t) => {
      const parts = this.shares.get(t) ?? [];
      this.shares.delete(t);
      this.sent.add(t);
      return parts;
    });
    return mergeLiveSeconds(taken);
  }
}
