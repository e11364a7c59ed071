import { fail, warn, type TfbProblem } from './problems.js';

/** What the database did during the verifier's burst: statements run, rows read, rows changed. */
export interface DatabaseWork {
  readonly queries: number;
  readonly rowsRead: number;
  readonly rowsUpdated: number;
}

/**
 * TFB's margin on rows (its MySQL class multiplies the rows read and updated by 1.015 before comparing: the server's
 * counters may fall a little short); statements are compared as counted.
 */
const ROWS_MARGIN = 1.015;

/**
 * One count against what the burst should have cost: fewer fails (by more than the margin), more than 5% over warns
 * (taken on the count itself: TFB's applies the margin there too, which warns of every batched update).
 */
function countProblem(caption: string, counted: number, expected: number, margin = 1): TfbProblem[] {
  if (counted * margin < expected) return [fail('counts', `only ${counted} ${caption} in the database out of the ${expected} expected`)];
  if (counted > expected * 1.05)
    return [warn('counts', `${counted} ${caption} in the database instead of the ${expected} expected: more than 5% over`)];
  return [];
}

/**
 * TFB's query count after a burst of `requests` requests of `queriesPerRequest` queries each (1 for db and fortunes,
 * 20 for queries and updates), reading `rowsPerQuery` rows each. Updates write every row they read; TFB counts one
 * UPDATE per request when the counts show the stack batches them, else one per row.
 */
export function tfbCountProblems(
  work: DatabaseWork,
  shape: { readonly requests: number; readonly queriesPerRequest: number; readonly rowsPerQuery: number; readonly updates: boolean },
): TfbProblem[] {
  const selects = shape.requests * shape.queriesPerRequest;
  const rows = selects * shape.rowsPerQuery;
  if (!shape.updates)
    return [...countProblem('queries', work.queries, selects), ...countProblem('rows read', work.rowsRead, rows, ROWS_MARGIN)];
  const batched = selects + shape.requests;
  const isBatched = work.queries > 0.999 * batched && work.queries < 1.001 * batched;
  return [
    ...countProblem('queries', work.queries, isBatched ? batched : selects * 2),
    ...countProblem('rows read', work.rowsRead, rows, ROWS_MARGIN),
    ...countProblem('rows updated', work.rowsUpdated, rows, isBatched ? ROWS_MARGIN * 1.05 : ROWS_MARGIN),
  ];
}

/**
 * TFB's check that updates write: of the World rows before and after the update cases, how many changed, against
 * the rows the cases asked to update (TFB's rule, for a new random number may equal the old one: 90% or fewer fails,
 * 95% or fewer warns).
 */
export function tfbUpdatedRowsProblems(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
  expected: number,
): TfbProblem[] {
  let changed = 0;
  for (const [id, value] of before) if (after.has(id) && after.get(id) !== value) changed++;
  if (changed === 0) return [fail('updates', 'no row of World changed: the updates were not written')];
  if (changed <= expected * 0.9) return [fail('updates', `only ${changed} rows of World changed out of about ${expected} updated`)];
  if (changed <= expected * 0.95) return [warn('updates', `only ${changed} rows of World changed out of about ${expected} updated`)];
  return [];
}
