import { fail, type TfbProblem } from './problems.js';

/** TFB's Fortune table: the twelve rows its schema holds, by id. */
export const TFB_FORTUNES: ReadonlyArray<{ readonly id: number; readonly message: string }> = [
  { id: 1, message: 'fortune: No such file or directory' },
  { id: 2, message: "A computer scientist is someone who fixes things that aren't broken." },
  { id: 3, message: 'After enough decimal places, nobody gives a damn.' },
  { id: 4, message: 'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1' },
  { id: 5, message: 'A computer program does what you tell it to do, not what you want it to do.' },
  { id: 6, message: 'Emacs is a nice operating system, but I prefer UNIX. \u2014 Tom Christaensen' },
  { id: 7, message: 'Any program that runs right is obsolete.' },
  { id: 8, message: 'A list is only as strong as its weakest link. \u2014 Donald Knuth' },
  { id: 9, message: 'Feature: A bug with seniority.' },
  { id: 10, message: 'Computers make very fast, very accurate mistakes.' },
  { id: 11, message: '<script>alert("This should not be displayed in a browser alert box.");</script>' },
  { id: 12, message: '\u30d5\u30ec\u30fc\u30e0\u30ef\u30fc\u30af\u306e\u30d9\u30f3\u30c1\u30de\u30fc\u30af' },
];

/** The row every fortunes answer adds at request time, before sorting. */
export const TFB_ADDED_FORTUNE = { id: 0, message: 'Additional fortune added at request time.' } as const;

// Tags TFB's comparison leaves out (a template may add them), and the ones a line break follows once normalised.
const IGNORED = new Set(['meta', 'link', 'script', 'thead', 'tbody']);
const BREAK_AFTER_START = new Set(['html', 'table']);
const BREAK_AFTER_END = new Set(['tr', 'head']);

// Numeric references TFB's comparison reads as a character (any other number is lost, as in TFB's).
const NUMERIC: Readonly<Record<number, string>> = {
  34: '&quot;',
  39: '&apos;',
  43: '+',
  62: '&gt;',
  60: '&lt;',
  47: '/',
  40: '(',
  41: ')',
};

/** Text between tags as the comparison sees it: quotes, apostrophes and > written as references. */
const normaliseText = (text: string): string => text.replace(/'/g, '&apos;').replace(/"/g, '&quot;').replace(/>/g, '&gt;');

/**
 * A fortunes page normalised the way TFB's verifier reads one, so that every correct escaping compares equal: tags
 * by name alone (attributes dropped, names in lower case), meta, link, thead, tbody and script (with what it holds)
 * left out, text between tags kept unless it is only white space, quotes and > in text written as references,
 * numeric references read as the character TFB allows (&#39; is &apos;), &mdash; as the dash itself, and a line break
 * after <html>, <table>, </head> and every </tr>.
 */
export function normaliseFortunesHtml(html: string): string {
  let out = '';
  let inScript = false;
  const emit = (piece: string, tag?: string) => {
    if (tag === 'script') inScript = !piece.startsWith('</');
    else if (!inScript && !(tag !== undefined && IGNORED.has(tag))) out += piece;
  };
  const token = /<!--[\s\S]*?-->|<![^>]*>|<\/?([A-Za-z][A-Za-z0-9]*)[^>]*>|&#([xX]?[0-9A-Fa-f]+);|&([A-Za-z][A-Za-z0-9]*);|[^<&]+|[<&]/g;
  for (let match = token.exec(html); match; match = token.exec(html)) {
    const [piece, tagName, numeric, entity] = match;
    if (piece.startsWith('<!--')) continue;
    if (piece.startsWith('<!')) emit(`<!${piece.slice(2, -1).toLowerCase()}>`);
    else if (tagName !== undefined) {
      const tag = tagName.toLowerCase();
      const closing = piece.startsWith('</');
      if (inScript && !(closing && tag === 'script')) continue;
      emit(closing ? `</${tag}>` : `<${tag}>`, tag);
      if (!IGNORED.has(tag) && (closing ? BREAK_AFTER_END : BREAK_AFTER_START).has(tag)) emit('\n');
    } else if (numeric !== undefined) {
      const code =
        numeric.startsWith('x') || numeric.startsWith('X') ? Number.parseInt(numeric.slice(1), 16) : Number.parseInt(numeric, 10);
      const known = NUMERIC[code];
      if (known !== undefined) emit(known);
    } else if (entity !== undefined) emit(entity === 'mdash' ? '\u2014' : `&${entity};`);
    else if (piece.trim() !== '') emit(normaliseText(piece));
  }
  return out;
}

/** A message as it reads in the normalised page: < and & escaped, quotes and > as references. */
const normalisedMessage = (message: string): string => normaliseText(message.replace(/&/g, '&amp;').replace(/</g, '&lt;'));

/** TFB's fortunes table, normalised: the twelve rows and the added one, sorted by message. */
export function expectedFortunesTable(): string {
  const rows = [...TFB_FORTUNES, TFB_ADDED_FORTUNE].sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return [
    '<!doctype html><html>',
    '<head><title>Fortunes</title></head>',
    '<body><table>',
    '<tr><th>id</th><th>message</th></tr>',
    ...rows.map((row) => `<tr><td>${row.id}</td><td>${normalisedMessage(row.message)}</td></tr>`),
    '</table></body></html>',
  ].join('\n');
}

/** fortunes: the page, normalised, is TFB's table; the first lines that differ are named. */
export function tfbFortunesProblems(body: string): TfbProblem[] {
  if (body.length === 0) return [fail('fortunes', 'the body is empty')];
  const expected = expectedFortunesTable().split('\n');
  const actual = normaliseFortunesHtml(body).split('\n');
  const differences: string[] = [];
  for (let line = 0; line < Math.max(expected.length, actual.length) && differences.length < 3; line++) {
    if (expected[line] !== actual[line])
      differences.push(`line ${line + 1} is \`${actual[line] ?? ''}\`, should be \`${expected[line] ?? ''}\``);
  }
  return differences.length > 0
    ? [fail('fortunes', `the page is not TFB's fortunes table once normalised: ${differences.join('; ')}`)]
    : [];
}
