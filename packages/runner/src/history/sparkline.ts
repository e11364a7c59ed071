const BARS = '▁▂▃▄▅▆▇█';

/** A unicode sparkline of values, lowest ▁ to highest █; a flat series is a flat line. */
export function sparkline(values: readonly number[]): string {
  if (values.length === 0) return '';
  const low = Math.min(...values);
  const high = Math.max(...values);
  return values
    .map((v) => (high === low ? BARS[3]! : BARS[Math.min(BARS.length - 1, Math.floor(((v - low) / (high - low)) * BARS.length))]!))
    .join('');
}
