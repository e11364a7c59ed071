import type { z } from 'zod';

/** One line for the first problem a schema found: where (a dotted path) and what. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the top level';
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}
