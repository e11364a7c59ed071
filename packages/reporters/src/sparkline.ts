const BARS = '▁▂▃▄▅▆▇█';

/** One character per value, scaled from zero to the largest: a collapse to zero shows as ▁. */
export function sparkline(values: readonly number[], width = 60): string {
  if (values.length === 0) return '';
  // longer series are averaged into `width` characters
  const size = Math.ceil(values.length / width);
  const points: number[] = [];
  for (let i = 0; i < values.length; i += size) {
    const part = values.slice(i, i + size);
    points.push(part.reduce((a, v) => a + v, 0) / part.length);
  }
  const max = Math.max(...points);
  if (max <= 0) return BARS[0]!.repeat(points.length);
  return points.map((v) => BARS[Math.min(BARS.length - 1, Math.round((v / max) * (BARS.length - 1)))]).join('');
}
