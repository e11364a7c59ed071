import { httpGet, type HttpAnswer, type Scenario } from '@bench/core';

export interface Verification {
  readonly ok: boolean;
  readonly problems: readonly string[];
  readonly answer?: HttpAnswer;
}

function describeBodyDifference(actual: Buffer, expected: Buffer): string {
  if (actual.length !== expected.length) {
    const preview = actual.subarray(0, 120).toString('utf8').replace(/\s+/g, ' ');
    return `body is ${actual.length} bytes, expected ${expected.length} (starts: "${preview}")`;
  }
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at++;
  return `body differs from byte ${at} on (same length ${actual.length})`;
}

/** Checks one answer against the scenario: status, Content-Type, framing, Date, extra headers, exact body. */
export function checkAnswer(scenario: Scenario, answer: HttpAnswer): string[] {
  const problems: string[] = [];
  if (answer.status !== scenario.status) problems.push(`status ${answer.status}, expected ${scenario.status}`);
  const contentType = String(answer.headers['content-type'] ?? '');
  if (!new RegExp(scenario.contentType, 'i').test(contentType)) {
    problems.push(`Content-Type "${contentType}" does not match /${scenario.contentType}/`);
  }
  if (answer.headers['content-length'] === undefined && answer.headers['transfer-encoding'] === undefined) {
    problems.push('neither Content-Length nor Transfer-Encoding is set');
  }
  if (answer.headers.date === undefined) problems.push('no Date header');
  for (const [name, pattern] of Object.entries(scenario.headers)) {
    const value = answer.headers[name.toLowerCase()];
    if (value === undefined) problems.push(`no ${name} header`);
    else if (!new RegExp(pattern, 'i').test(String(value))) problems.push(`${name} "${String(value)}" does not match /${pattern}/`);
  }
  const expected = scenario.expectedBody();
  if (!answer.body.equals(expected)) problems.push(describeBodyDifference(answer.body, expected));
  return problems;
}

/** One real request to a running target, checked. Never trust a stack's numbers before this passes. */
export async function verifyTarget(baseUrl: string, scenario: Scenario): Promise<Verification> {
  let answer: HttpAnswer;
  try {
    answer = await httpGet(baseUrl + scenario.path, 10_000);
  } catch (error) {
    return { ok: false, problems: [`request failed: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const problems = checkAnswer(scenario, answer);
  return { ok: problems.length === 0, problems, answer };
}
