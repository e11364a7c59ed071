import { randomInt } from 'node:crypto';

/** A function returning numbers in [0, 1), the same sequence for the same seed. */
export type Random = () => number;

// mulberry32: a 32-bit state, one multiply-xorshift step per number; plenty for shuffles and bootstraps, and
// reproducible from a seed a results file can record (Math.random cannot be seeded).
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh seed for a run that was given none (recorded, so the run's order can be replayed). */
export const randomSeed = (): number => randomInt(1, 2 ** 32 - 1);

/** A new array in a random order (Fisher-Yates), drawn from `random`. */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A normally distributed number (Box-Muller), for simulated samples. */
export function normal(random: Random, mean = 0, sd = 1): number {
  const u = 1 - random();
  const v = random();
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
