// The exact bodies of the basic scenarios. The Node handlers build their answers with these
// functions and the fixture generator writes the expected bodies with the same ones, so the two
// cannot drift; PHP and Perl handlers are checked against the generated files.

export const HELLO = 'Hello World';

const PAGE_HEAD = '<html>\n<head><title>bench: file</title></head>\n<body>\n<h1>A small static page</h1>\n';
const PAGE_TAIL = '</body>\n</html>\n';

/** The 311-byte static page of the file scenario (article 000's small file). */
export function staticPage(): string {
  const filler = '<p>This page is served as a plain file by the web server of each stack.</p>\n';
  let page = PAGE_HEAD + filler;
  // pad with a comment so the page is exactly 311 bytes
  const room = 311 - page.length - PAGE_TAIL.length - '<!--  -->\n'.length;
  page += `<!-- ${'x'.repeat(room)} -->\n` + PAGE_TAIL;
  return page;
}

/** 65,536 bytes of ASCII: lines of 63 characters plus "\n", the last one cut to fit. */
export function bigBlock(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let line = 0; out.length < 65_536; line++) {
    let text = '';
    for (let i = 0; i < 63; i++) text += alphabet[(line + i) % alphabet.length];
    out += `${text}\n`;
  }
  return out.slice(0, 65_536);
}

/** "Hello, World N\n" for N = 1..4000. */
export function loopBody(): string {
  let out = '';
  for (let n = 1; n <= 4000; n++) out += `Hello, World ${n}\n`;
  return out;
}

/** Article 001's 9x9 multiplication table page. */
export function table9x9(): string {
  let out = '<html>\n<head><title>9x9</title></head>\n<body>\n<table border=1>\n';
  for (let x = 1; x <= 9; x++) {
    out += '<tr>';
    for (let y = 1; y <= 9; y++) out += `<td nowrap>${x} x ${y} = ${x * y}</td>`;
    out += '</tr>\n';
  }
  return `${out}</table>\n</body>\n</html>\n`;
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

/** Text file number `n` (1..4) of the include scenario: 105 numbered lines of words, about 7 KB. */
export function includeText(n: number): string {
  let out = '';
  for (let line = 1; line <= 105; line++) {
    const words: string[] = [];
    for (let w = 0; w < 10; w++) words.push(WORDS[(n * 7 + line * 3 + w) % WORDS.length] ?? '');
    out += `${n}.${String(line).padStart(3, '0')} ${words.join(' ')}\n`;
  }
  return out;
}

export const INCLUDE_FILES = ['include1.txt', 'include2.txt', 'include3.txt', 'include4.txt'] as const;
export const INCLUDE_SEPARATOR = '<p><hr><p>';

/** The include page around the four texts, in order. */
export function includePage(parts: readonly string[]): string {
  return `<html>\n<body>\n${parts.join(INCLUDE_SEPARATOR)}</body>\n</html>\n`;
}

export const LARGE_FILE_BYTES = 1_147_675;

/** Deterministic binary content (xorshift32, seed 2463534242) for the large-file scenario. */
export function largeBinary(): Buffer {
  const out = Buffer.alloc(LARGE_FILE_BYTES);
  let x = 2463534242;
  for (let i = 0; i < out.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** The string escaped by the escape scenario; it holds every character ENT_QUOTES escapes. */
export const ESCAPE_SOURCE = `<a href="/search?q=caf&lang=en">Tom's "best" <b>deals</b> & more</a>`;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/** PHP's htmlspecialchars($s, ENT_QUOTES). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** The 100 htmlspecialchars calls of article 003's test.php: escape(SOURCE + " " + i) for i = 1..100. */
export function escapedLines(): string[] {
  const lines: string[] = [];
  for (let i = 1; i <= 100; i++) lines.push(escapeHtml(`${ESCAPE_SOURCE} ${i}`));
  return lines;
}

/** The escape scenario: the 100 lines joined by "\n" (no trailing newline), 12,891 bytes. */
export function escapeBody(): string {
  return escapedLines().join('\n');
}

/**
 * The escape-400 scenario: the same 100 calls answering a 400-byte page, as the article's test.php did
 * ("Document Length: 400 bytes"): the first and last lines and the bytes of all 100, so no call can be skipped.
 */
export function escapePage(): string {
  const lines = escapedLines();
  const bytes = lines.reduce((sum, line) => sum + line.length, 0);
  return (
    '<html>\n<head><title>100 calls of htmlspecialchars</title></head>\n<body>\n' +
    `<p>${lines[0]}</p>\n<p>${lines[lines.length - 1]}</p>\n<p>${lines.length} strings escaped, ${bytes} bytes</p>\n` +
    '</body>\n</html>\n'
  );
}
