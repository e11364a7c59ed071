const BARS = '▁▂▃▄▅▆▇█';

export interface SparklineOptions {
  /** Longer series are averaged into this many characters. @default 60 */
  readonly width?: number;
  /**
   * 'zero': scaled from zero to the largest value, so a collapse to zero shows as ▁ (a run's seconds);
   * 'range': from the lowest value to the highest, so small moves show (a history's runs); a flat series is a flat line.
   * @default 'zero'
   */
  readonly scale?: 'zero' | 'range';
}

/** One character per value (or per group of values, past `width`). */
export function sparkline(values: readonly number[], options: SparklineOptions = {}): string {
  if (values.length === 0) return '';
  const width = options.width ?? 60;
  const size = Math.ceil(values.length / width);
  const points: number[] = [];
  for (let i = 0; i < values.length; i += size) {
    const part = values.slice(i, i + size);
    points.push(part.reduce((a, v) => a + v, 0) / part.length);
  }
  if (options.scale === 'range') {
    const low = Math.min(...points);
    const high = Math.max(...points);
    return points
      .map((v) => (high === low ? BARS[3]! : BARS[Math.min(BARS.length - 1, Math.floor(((v - low) / (high - low)) * BARS.length))]!))
      .join('');
  }
  const max = Math.max(...points);
  if (max <= 0) return BARS[0]!.repeat(points.length);
  return points.map((v) => BARS[Math.min(BARS.length - 1, Math.round((v / max) * (BARS.length - 1)))]).join('');
}
