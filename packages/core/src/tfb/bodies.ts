import { messageOf } from '../errors.js';
import { fail, preview, warn, type TfbProblem } from './problems.js';

type Severity = TfbProblem['severity'];

/** A body as JSON, or the problem that it is empty or not JSON. */
export function parseTfbJson(body: string): { value?: unknown; problems: TfbProblem[] } {
  if (body.length === 0) return { problems: [fail('body', 'the body is empty')] };
  try {
    return { value: JSON.parse(body) as unknown, problems: [] };
  } catch (error) {
    return {
      problems: [fail('body', `the body is not JSON (${messageOf(error)}): "${preview(body)}"`)],
    };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Keys without regard to case, as TFB compares them. */
const lowerKeys = (object: Record<string, unknown>): Map<string, unknown> =>
  new Map(Object.entries(object).map(([key, value]) => [key.toLowerCase(), value]));

/** json: the object {"message": "Hello, World!"} (keys and message without regard to case); more keys warn. */
export function tfbJsonProblems(body: string): TfbProblem[] {
  const { value, problems } = parseTfbJson(body);
  if (problems.length > 0) return problems;
  if (!isObject(value)) return [fail('body', `the body is not a JSON object: "${preview(body)}"`)];
  const keys = lowerKeys(value);
  if (!keys.has('message')) return [fail('body', 'the JSON object has no key "message"')];
  const message = keys.get('message');
  if (typeof message !== 'string' || message.toLowerCase() !== 'hello, world!')
    return [fail('body', `the message is ${JSON.stringify(message)}, not "Hello, World!"`)];
  const extra = [...keys.keys()].filter((key) => key !== 'message');
  return extra.length > 0 ? [warn('body', `the JSON object has more keys than "message": ${extra.join(', ')}`)] : [];
}

/** plaintext: "Hello, World!" (without regard to case); more bytes than that warn. */
export function tfbPlaintextProblems(body: string): TfbProblem[] {
  if (body.length === 0) return [fail('body', 'the body is empty')];
  const expected = 'hello, world!';
  if (!body.toLowerCase().includes(expected)) return [fail('body', `the body does not hold "Hello, World!": "${preview(body)}"`)];
  const extra = Buffer.byteLength(body) - expected.length;
  return extra > 0 ? [warn('body', `the body has ${extra} more bytes than "Hello, World!"`)] : [];
}

const isWhole = (value: unknown): boolean =>
  (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value.trim()));

/**
 * One World row as TFB wants it: an object with the keys id and randomNumber (without regard to case), each a whole
 * number; more keys, an id outside 1..10,000 and a randomNumber over 10,000 warn.
 */
export function tfbWorldObjectProblems(value: unknown, severity: Severity = 'fail'): TfbProblem[] {
  if (!isObject(value))
    return [{ severity, rule: 'body', message: `expected a JSON object, got ${preview(JSON.stringify(value) ?? String(value), 20)}` }];
  const keys = lowerKeys(value);
  const missing = ['id', 'randomnumber'].filter((key) => !keys.has(key));
  if (missing.length > 0)
    return missing.map((key) => ({ severity, rule: 'body', message: `a row has no key ${key === 'id' ? 'id' : 'randomNumber'}` }));
  const problems: TfbProblem[] = [];
  const extra = [...keys.keys()].filter((key) => key !== 'id' && key !== 'randomnumber');
  if (extra.length > 0) problems.push(warn('body', `a row has more keys than id and randomNumber: ${extra.join(', ')}`));
  const [id, randomNumber] = [keys.get('id'), keys.get('randomnumber')];
  if (!isWhole(id)) problems.push({ severity, rule: 'body', message: `a row's id is ${JSON.stringify(id)}, not a whole number` });
  else if (Number(id) < 1 || Number(id) > 10_000) problems.push(warn('body', `a row's id ${String(id)} is not between 1 and 10,000`));
  if (!isWhole(randomNumber))
    problems.push({ severity, rule: 'body', message: `a row's randomNumber is ${JSON.stringify(randomNumber)}, not a whole number` });
  else if (Number(randomNumber) > 10_000) problems.push(warn('body', `a row's randomNumber ${String(randomNumber)} is over 10,000`));
  return problems;
}

/** db: one World row as an object; an array of one warns (TFB still allows it). */
export function tfbDbProblems(body: string): TfbProblem[] {
  const { value, problems } = parseTfbJson(body);
  if (problems.length > 0) return problems;
  if (Array.isArray(value)) {
    const [first] = value as unknown[];
    if (!isObject(first)) return [fail('body', 'the body is an array, not a JSON object, and holds no object')];
    return [warn('body', 'the body is an array of one, not a JSON object'), ...tfbWorldObjectProblems(first)];
  }
  return tfbWorldObjectProblems(value);
}

/** queries, updates, cached-queries: an array of `length` World rows (the first five bad rows are named). */
export function tfbWorldListProblems(body: string, length: number, severity: Severity = 'fail'): TfbProblem[] {
  const { value, problems } = parseTfbJson(body);
  if (problems.length > 0) return problems.map((p) => ({ ...p, severity }));
  if (!Array.isArray(value))
    return [{ severity, rule: 'body', message: 'the body is a JSON object, not an array' }, ...tfbWorldObjectProblems(value, severity)];
  const list = value as unknown[];
  const found: TfbProblem[] = [];
  if (list.length !== length) found.push({ severity, rule: 'body', message: `the array holds ${list.length} rows, not ${length}` });
  let bad = 0;
  for (const row of list) {
    if (bad >= 5) break;
    const rowProblems = tfbWorldObjectProblems(row, severity);
    if (rowProblems.length > 0) bad++;
    found.push(...rowProblems);
  }
  return found;
}
