import type { Scenario } from '@bench/core';

const CANDIDATES = ['text/html', 'text/plain', 'application/octet-stream'];

/** The media type a template engine must declare for a scenario: the first that its expected Content-Type pattern accepts. */
export function mediaTypeOf(scenario: Scenario): string {
  const pattern = scenario.expect.contentType ? new RegExp(scenario.expect.contentType, 'i') : undefined;
  return CANDIDATES.find((type) => !pattern || pattern.test(type)) ?? 'text/html';
}
