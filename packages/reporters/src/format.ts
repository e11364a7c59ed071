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

/**
 * Text a server, a data file or a user said, as markdown shows it without acting on it: no image, link, autolink or HTML
 * of its own (a pull request's comment renders what a CI job posts); bench's own words read the same once rendered.
 */
export function markdownText(text: string): string {
  // a pipe makes no table in a list's line, and a table's cell escapes its own
  return text
    .replace(/</g, '&lt;')
    .replace(/!\[/g, '!\\[')
    .replace(/\]([[(])/g, '\\]$1')
    .replace(/:\/\//g, ':\\/\\/')
    .replace(/\bwww\./gi, (match) => `${match.slice(0, 3)}\\.`);
}
