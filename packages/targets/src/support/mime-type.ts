import { contentTypeMatches, type Scenario } from '@bench/core';

const CANDIDATES = ['text/html', 'text/plain', 'application/octet-stream'];

/** The media type a template engine must declare for a scenario: the first that its expected Content-Type accepts. */
export function mediaTypeOf(scenario: Scenario): string {
  const expected = scenario.expect.contentType;
  return CANDIDATES.find((type) => expected === undefined || contentTypeMatches(expected, type)) ?? 'text/html';
}
