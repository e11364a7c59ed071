import { setTimeout as sleep } from 'node:timers/promises';
import {
  messageOf,
  describeTfbProblem,
  fail,
  protocolRequest,
  routeOf,
  TFB_COUNTED_QUERIES,
  TFB_QUERY_CASES,
  tfbCountProblems,
  tfbDateChangeProblems,
  tfbDbProblems,
  tfbFortunesProblems,
  tfbHeaderProblems,
  tfbJsonProblems,
  tfbPlaintextProblems,
  tfbRowCount,
  tfbRules,
  tfbUpdatedRowsProblems,
  tfbWorldListProblems,
  databaseOf,
  type DatabaseKind,
  type DatabaseWork,
  type ProtocolAnswer,
  type Scenario,
  type TfbProblem,
  type TfbTable,
  type TfbTestType,
  type Transport,
} from '@bench/core';
import type { DatabaseProbe } from '@bench/services';
import { burst } from './tfb-burst.js';
import { databaseWindows } from './database-windows.js';

/** What TFB's verifier needs beyond the stack: the database to count in, and how many requests the burst sends. */
export interface TfbContext {
  /** The run's database (its counters and World); absent, the counts and the update check are not made. */
  readonly database?: (kind: DatabaseKind) => Promise<DatabaseProbe>;
  /** The requests of the counted burst, all at once (TFB's 512). */
  readonly burst: number;
}

/** What TFB's verifier found: failures keep the stack from being measured, warnings are printed. */
export interface TfbVerification {
  readonly failures: readonly string[];
  readonly warnings: readonly string[];
  readonly answer?: ProtocolAnswer;
}

const isHttp2 = (transport: Transport | undefined) => transport?.protocol === 'h2' || transport?.protocol === 'h2c';

/** The body rules of a type for one answer; `rows` is what a list type's request asked for. */
function bodyProblems(type: TfbTestType, body: string, rows: number, severity: TfbProblem['severity'] = 'fail'): TfbProblem[] {
  switch (type) {
    case 'json':
      return tfbJsonProblems(body);
    case 'plaintext':
      return tfbPlaintextProblems(body);
    case 'db':
      return tfbDbProblems(body);
    case 'fortunes':
      return tfbFortunesProblems(body);
    default:
      return tfbWorldListProblems(body, rows, severity);
  }
}

/** One answer's status, headers and body, as TFB checks them (over HTTP/2 the frames say the size). */
function answerProblems(
  type: TfbTestType,
  answer: ProtocolAnswer,
  rows: number,
  transport: Transport | undefined,
  severity?: TfbProblem['severity'],
) {
  const problems: TfbProblem[] = [];
  if (answer.status !== 200) problems.push(fail('status', `HTTP ${answer.status}, not 200`));
  const headers = isHttp2(transport) ? { 'content-length': '', ...answer.headers } : answer.headers;
  problems.push(...tfbHeaderProblems(tfbRules[type].contentType, headers));
  problems.push(...bodyProblems(type, answer.body.toString('utf8'), rows, severity));
  return problems;
}

/** A whole second after the Date of the first answer, so a fresh Date must differ. */
async function untilTheNextSecond(answer: ProtocolAnswer, sentAt: number): Promise<void> {
  const date = Date.parse(String(answer.headers.date ?? ''));
  const after = (Number.isNaN(date) ? sentAt : date) + 1_100;
  if (Date.now() < after) await sleep(after - Date.now());
}

/**
 * TechEmpower's verification of one test type on a running stack: the answer's status, headers and body; for the
 * query types every case of the parameter (2, 0, foo, 501, empty); for updates, that World's rows really change;
 * for the database types, the database's own counters around a burst of requests sent at once; and a Date that
 * changes a second later. Every finding is named by its rule.
 */
export async function verifyTfb(
  baseUrl: string,
  scenario: Scenario,
  type: TfbTestType,
  transport: Transport | undefined,
  context: TfbContext,
): Promise<TfbVerification> {
  const rules = tfbRules[type];
  const get = (path: string) => protocolRequest(baseUrl + path, { headers: { accept: '*/*' } }, transport, 30_000);
  const problems: TfbProblem[] = [];
  const path = scenario.request.path;
  const asked = (value: string | null) => tfbRowCount(value ?? '');
  const parameter = rules.parameter;
  const requested = parameter ? asked(new URL(path, 'http://x').searchParams.get(parameter)) : 1;
  const kind = databaseOf(scenario);
  const database = rules.counted && context.database && kind ? await context.database(kind) : undefined;
  // every request that reads the database takes its turn: the counted bursts and the update check have it alone
  const reads = kind !== undefined;
  const shared = <T>(work: () => Promise<T>) => (reads ? databaseWindows.shared(work) : work());
  const sentAt = Date.now();
  let first: ProtocolAnswer;
  try {
    first = await shared(() => get(path));
  } catch (error) {
    return {
      failures: [describeTfbProblem(fail('request', `no answer: ${messageOf(error)}`))],
      warnings: [],
    };
  }
  problems.push(...answerProblems(type, first, requested, transport));
  if (parameter) {
    const cases = () => queryCases(get, type, `${routeOf(scenario)}?${parameter}=`, transport, database);
    problems.push(...(await (type === 'updates' && database ? databaseWindows.exclusive(cases) : shared(cases))));
  }
  if (database && rules.counted)
    problems.push(...(await databaseWindows.exclusive(() => countedBurst(baseUrl, scenario, type, transport, database, context.burst))));

  await untilTheNextSecond(first, sentAt);
  try {
    problems.push(...tfbDateChangeProblems(first.headers, (await shared(() => get(path))).headers));
  } catch (error) {
    problems.push(fail('request', `no second answer: ${messageOf(error)}`));
  }
  return { failures: described(problems, 'fail'), warnings: described(problems, 'warn'), answer: first };
}

/** The problems of one severity as lines; a finding several answers repeat (the query cases') said once, counted. */
function described(problems: readonly TfbProblem[], severity: TfbProblem['severity']): string[] {
  const seen = new Map<string, TfbProblem[]>();
  for (const problem of problems.filter((p) => p.severity === severity)) {
    const key = describeTfbProblem({ ...problem, message: problem.message.replace(/^\/\S*: /, '') });
    seen.set(key, [...(seen.get(key) ?? []), problem]);
  }
  return [...seen].map(([line, same]) => (same.length > 1 ? `${line} (${same.length} answers)` : describeTfbProblem(same[0]!)));
}
/** TFB's cases of the query parameter, each answer checked; for updates, World before and after the 501 case. */
async function queryCases(
  get: (path: string) => Promise<ProtocolAnswer>,
  type: TfbTestType,
  prefix: string,
  transport: Transport | undefined,
  database: DatabaseProbe | undefined,
): Promise<TfbProblem[]> {
  const problems: TfbProblem[] = [];
  const before = type === 'updates' && database ? await database.world() : undefined;
  for (const { value, severity } of TFB_QUERY_CASES) {
    const rows = tfbRowCount(value);
    let answer: ProtocolAnswer;
    try {
      answer = await get(prefix + encodeURIComponent(value));
    } catch (error) {
      problems.push({
        severity,
        rule: 'query cases',
        message: `${prefix}${value}: no answer: ${messageOf(error)}`,
      });
      continue;
    }
    for (const problem of answerProblems(type, answer, rows, transport, severity))
      problems.push({ ...problem, message: `${prefix}${value}: ${problem.message}` });
    if (before && database && value === '501') problems.push(...tfbUpdatedRowsProblems(before, await database.world(), rows));
  }
  return problems;
}

/**
 * The counters once they stop moving: the server answers a statement before it adds the statement to its counters,
 * so the last statements before a reading can be counted a moment after their answers (seen: 335 of 336 at once).
 */
async function settledWork(database: DatabaseProbe, table: TfbTable): Promise<DatabaseWork> {
  let last = await database.work(table);
  for (let tries = 0; tries < 20; tries++) {
    await sleep(50);
    const now = await database.work(table);
    if ((Object.keys(now) as Array<keyof DatabaseWork>).every((counter) => now[counter] === last[counter])) return now;
    last = now;
  }
  return last;
}

/** The database's counters around `requests` requests sent at once, against what they should have cost. */
async function countedBurst(
  baseUrl: string,
  scenario: Scenario,
  type: TfbTestType,
  transport: Transport | undefined,
  database: DatabaseProbe,
  requests: number,
): Promise<TfbProblem[]> {
  const { counted, parameter } = tfbRules[type];
  if (!counted) return [];
  const queriesPerRequest = parameter ? TFB_COUNTED_QUERIES : 1;
  const url = baseUrl + (parameter ? `${routeOf(scenario)}?${parameter}=${queriesPerRequest}` : scenario.request.path);
  const table: TfbTable = type === 'fortunes' ? 'fortune' : 'world';
  const before = await settledWork(database, table);
  const outcome = await burst(url, requests, transport);
  const after = await settledWork(database, table);
  const shape = { requests, queriesPerRequest, rowsPerQuery: counted.rowsPerQuery, updates: type === 'updates' };
  const problems = tfbCountProblems(before, after, shape, database.kind);
  if (outcome.failed > 0)
    problems.unshift(fail('counts', `${outcome.failed} of the burst's ${requests} requests failed (${outcome.sample ?? ''})`));
  return problems.map((p) => ({ ...p, message: `${p.message} (a burst of ${requests}; ${database.counters})` }));
}
