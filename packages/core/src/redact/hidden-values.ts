import { printable } from '../printable.js';

// Finding a secret in text, wherever bench hides one: the run's redaction (runner) and a flow's captured values
// (each connection's cursor). Both hide a value as written, as a JSON string or printable() quotes it, and a piece
// of it that a sample's cut left at a quote's edge.

/** What a hidden value reads as wherever text is written or shown. */
export const REDACTED = '[redacted]';

/** A piece of a secret this long or longer, at a quote's edge or the text's, is hidden too; shorter pieces say little. */
export const SHORTEST_PIECE = 6;

/** A secret as a JSON string holds it, and as printable() quotes it (controls escaped, the backslash doubled). */
export function escapedForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const quoted = printable(value, Number.MAX_SAFE_INTEGER);
  return [json, quoted, JSON.stringify(quoted).slice(1, -1)].filter((form) => form !== value);
}

/**
 * The pieces of `secret` a cut left in `text`: its start just before a closing quote or the text's end, and its end just
 * after an opening quote or at the text's start (the longest piece first). A sample of a server's bytes is cut at a
 * fixed length, so an echoed secret may stand there only in part.
 */
export function withoutCutPieces(text: string, secret: string): string {
  if (secret.length <= SHORTEST_PIECE) return text;
  const head = secret.slice(0, SHORTEST_PIECE);
  const tail = secret.slice(-SHORTEST_PIECE);
  if (!text.includes(head) && !text.includes(tail)) return text;
  let out = text;
  for (let k = secret.length - 1; k >= SHORTEST_PIECE; k--) {
    const start = secret.slice(0, k);
    const end = secret.slice(secret.length - k);
    for (const quote of ['"', "'", '...']) {
      out = out.split(start + quote).join(REDACTED + quote);
      out = out.split(quote + end).join(quote + REDACTED);
    }
    if (out.endsWith(start)) out = out.slice(0, out.length - start.length) + REDACTED;
    if (out.startsWith(end)) out = REDACTED + out.slice(end.length);
  }
  return out;
}

/** Each secret with its escaped forms, the longest first (so "Bearer abc123" goes whole before "abc123" alone). */
export function secretForms(secrets: Iterable<string>): string[] {
  return [...new Set([...secrets].flatMap((secret) => [secret, ...escapedForms(secret)]))].sort((a, b) => b.length - a.length);
}

/** `text` with each of `forms` (as secretForms gives them) hidden whole, then the pieces a cut left of each. */
export function hideForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  for (const form of forms) out = withoutCutPieces(out, form);
  return out;
}
