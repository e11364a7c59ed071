// a point of the split: 0, i/n, 1
const point = (i: number, n: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);

/** k6 execution segments splitting one test into n equal parts: '0:1/4', '1/4:2/4', ... */
export function executionSegments(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${point(i, n)}:${point(i + 1, n)}`);
}

/** The full sequence every instance is given, so each knows the whole split: '0,1/4,2/4,3/4,1'. */
export function executionSegmentSequence(n: number): string {
  return Array.from({ length: n + 1 }, (_, i) => point(i, n)).join(',');
}

/** The k6 flags that make one instance run part `index` of `n`; none when there is one. */
export function segmentFlags(index: number, n: number): string[] {
  if (n <= 1) return [];
  return ['--execution-segment', executionSegments(n)[index] ?? '', '--execution-segment-sequence', executionSegmentSequence(n)];
}
