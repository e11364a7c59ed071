import type { IncomingHttpHeaders } from 'node:http';
import { fail, warn, type TfbProblem } from './problems.js';
import type { TfbTypeRules } from './test-types.js';

/** The Content-Types TFB accepts for each kind of answer (UTF-8 optional but for HTML). */
const CONTENT_TYPES: Readonly<Record<TfbTypeRules['contentType'], RegExp>> = {
  json: /^application\/json(; ?charset=(UTF|utf)-8)?$/,
  plaintext: /^text\/plain(; ?charset=(UTF|utf)-8)?$/,
  html: /^text\/html; ?charset=(UTF|utf)-8$/,
};

// An HTTP date as RFC 9110 writes it, which TFB parses with '%a, %d %b %Y %H:%M:%S %Z'
const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|UTC)$/;

const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * TFB's header rules for one answer: Server, Date and Content-Type present, the size said (Content-Length or
 * Transfer-Encoding), the Date in HTTP's format (a warning), the Content-Type the test type's.
 */
export function tfbHeaderProblems(contentType: TfbTypeRules['contentType'], headers: IncomingHttpHeaders): TfbProblem[] {
  const problems: TfbProblem[] = [];
  for (const name of ['server', 'date', 'content-type'])
    if (headers[name] === undefined)
      problems.push(fail('headers', `the ${name.replace(/\b\w/g, (c) => c.toUpperCase())} header is missing`));
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
    problems.push(fail('headers', 'neither Content-Length nor Transfer-Encoding says the size of the body'));
  const date = one(headers.date);
  if (date !== undefined && !HTTP_DATE.test(date)) problems.push(warn('date', `the Date header "${date}" is not an HTTP date`));
  const type = one(headers['content-type']);
  if (type !== undefined && !CONTENT_TYPES[contentType].test(type))
    problems.push(fail('content-type', `Content-Type is "${type}", not what TFB accepts (${CONTENT_TYPES[contentType].source})`));
  return problems;
}

/** TFB's cached-Date rule: two answers at least a second apart must carry different Dates. */
export function tfbDateChangeProblems(first: IncomingHttpHeaders, second: IncomingHttpHeaders): TfbProblem[] {
  const [before, after] = [one(first.date), one(second.date)];
  if (before === undefined || after === undefined || before !== after) return [];
  return [fail('date', `the Date header is "${before}" on two requests more than a second apart: the stack sends a cached Date`)];
}
