// Small printf-style helpers: ab's report is defined by C format strings (%5ld, %5.1f, ...).

/** %Nd: an integer right-aligned in `width`. */
export function padInt(value: number, width: number): string {
  return String(Math.round(value)).padStart(width);
}

/** %N.Mf: a fixed-point number right-aligned in `width`. */
export function padFixed(value: number, width: number, digits: number): string {
  return value.toFixed(digits).padStart(width);
}

/** ab's labels are padded so every value starts at column 24. */
export function abLine(label: string, value: string): string {
  return `${label.padEnd(24)}${value}`;
}

/** Thousands separators, at most `digits` decimals. */
export function formatNumber(value: number, digits = 2): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: digits });
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}
