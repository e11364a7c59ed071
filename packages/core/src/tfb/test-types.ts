/** TechEmpower's seven test types, as bench's tfb-* scenarios name them (scenario.json's `tfb`). */
export const tfbTestTypes = ['json', 'plaintext', 'db', 'queries', 'fortunes', 'updates', 'cached-queries'] as const;
export type TfbTestType = (typeof tfbTestTypes)[number];

/** What TFB requires of one test type's answers, and how its verifier counts the database's work. */
export interface TfbTypeRules {
  /** The Content-Type TFB accepts: JSON, plain text or HTML (with UTF-8). */
  readonly contentType: 'json' | 'plaintext' | 'html';
  /** The query parameter whose cases TFB tries (queries=N, count=N): 0, foo and empty give 1, 501 gives 500. */
  readonly parameter?: 'queries' | 'count';
  /** The table the verifier's burst reads, and the rows of it each query reads. */
  readonly counted?: { readonly table: 'World' | 'Fortune'; readonly rowsPerQuery: number };
}

export const tfbRules: Readonly<Record<TfbTestType, TfbTypeRules>> = {
  json: { contentType: 'json' },
  plaintext: { contentType: 'plaintext' },
  db: { contentType: 'json', counted: { table: 'World', rowsPerQuery: 1 } },
  queries: { contentType: 'json', parameter: 'queries', counted: { table: 'World', rowsPerQuery: 1 } },
  fortunes: { contentType: 'html', counted: { table: 'Fortune', rowsPerQuery: 12 } },
  updates: { contentType: 'json', parameter: 'queries', counted: { table: 'World', rowsPerQuery: 1 } },
  'cached-queries': { contentType: 'json', parameter: 'count' },
};

/** The largest and smallest number of rows a queries, updates or cached-queries answer may hold. */
export const TFB_MOST_ROWS = 500;

/** The queries per request of the verifier's counted burst for queries and updates, as TFB's. */
export const TFB_COUNTED_QUERIES = 20;

/** The requests of the verifier's counted burst, all at once: TFB's 512 (its highest concurrency). */
export const TFB_BURST = 512;

/** The rows a `?queries=` value asks for: a whole number clamped to 1..500, anything else 1. */
export function tfbRowCount(value: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(value)) return 1;
  return Math.min(TFB_MOST_ROWS, Math.max(1, Number.parseInt(value, 10)));
}

/** TFB's cases for the query parameter: the value, and whether a wrong answer fails or only warns. */
export const TFB_QUERY_CASES: ReadonlyArray<{ readonly value: string; readonly severity: 'fail' | 'warn' }> = [
  { value: '2', severity: 'fail' },
  { value: '0', severity: 'fail' },
  { value: 'foo', severity: 'fail' },
  { value: '501', severity: 'warn' },
  { value: '', severity: 'fail' },
];
