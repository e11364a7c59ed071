/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

// A small seeded generator (mulberry32), so the same two files always give the same interval.
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function resample(values: readonly number[], random: () => number): number[] {
  return values.map(() => values[Math.floor(random() * values.length)] ?? 0);
}

/**
 * A percentile bootstrap interval of the change in median from `base` to `head`, in percent of the
 * base median: each side resampled with replacement, `rounds` times (criterion's approach, on
 * per-repeat samples: one number per measured run, never per request).
 */
export function bootstrapChangeInterval(
  base: readonly number[],
  head: readonly number[],
  confidence = 0.95,
  rounds = 10_000,
  seed = 1,
): [number, number] {
  const random = seeded(seed);
  const changes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const b = median(resample(base, random));
    const h = median(resample(head, random));
    changes.push(b === 0 ? 0 : ((h - b) / b) * 100);
  }
  changes.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return [changes[Math.floor(tail * rounds)] ?? 0, changes[Math.min(rounds - 1, Math.ceil((1 - tail) * rounds) - 1)] ?? 0];
}
