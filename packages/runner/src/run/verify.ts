import { answerProblems, httpRequest, type HttpAnswer, type Scenario } from '@bench/core';

export interface Verification {
  readonly ok: boolean;
  readonly problems: readonly string[];
  readonly answer?: HttpAnswer;
}

/** One real request to a running target, checked. Never trust a stack's numbers before this passes. */
export async function verifyTarget(baseUrl: string, scenario: Scenario): Promise<Verification> {
  let answer: HttpAnswer;
  try {
    answer = await httpRequest(baseUrl + scenario.request.path, scenario.request, 10_000);
  } catch (error) {
    return { ok: false, problems: [`request failed: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const problems = answerProblems(scenario.expect, answer);
  return { ok: problems.length === 0, problems, answer };
}
