/** Least squares y = a + b·x, with the share of y's variance the line explains (R²). */
export function linearFit(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number; r2: number } {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  // a flat line explains a constant series fully, and nothing else
  const r2 = syy > 0 && sxx > 0 ? (sxy * sxy) / (sxx * syy) : syy === 0 ? 1 : 0;
  return { slope, intercept: my - slope * mx, r2 };
}
