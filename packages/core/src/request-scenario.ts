import { z } from 'zod';
import type { BodyExpectation, Scenario } from './scenario.js';

const jsonValue: z.ZodType<unknown> = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()),
]);

/** A request scenario, as a config file names it: a route of the app's own server, checked loosely enough for APIs. */
export const requestScenarioSchema = z
  .object({
    name: z.string().min(1),
    title: z.string().optional(),
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'an HTTP method such as GET or POST')
      .default('GET'),
    path: z.string().startsWith('/', 'a path starting with /'),
    headers: z.record(z.string(), z.string()).default({}),
    /** Text sent as is, or a JSON value sent as JSON (Content-Type application/json unless headers say otherwise). */
    body: z.union([z.string(), jsonValue]).optional(),
    expect: z
      .object({
        status: z.number().int().min(100).max(599).optional(),
        /** The media type the Content-Type must start with, without regard to case (a charset may follow); as in scenario.json. */
        contentType: z.string().optional(),
        /** The exact body text. */
        body: z.string().optional(),
        /** A regular expression the body must match. */
        bodyMatches: z
          .string()
          .refine((pattern) => {
            try {
              new RegExp(pattern);
              return true;
            } catch {
              return false;
            }
          }, 'a valid regular expression')
          .optional(),
        /** A JSON value the answer must contain (objects: these keys with these values, recursively). */
        json: jsonValue.optional(),
      })
      .strict()
      .refine(
        (e) => [e.body, e.bodyMatches, e.json].filter((x) => x !== undefined).length <= 1,
        'at most one of body, bodyMatches and json',
      )
      .default({}),
  })
  .strict();

export type RequestScenarioSpec = z.input<typeof requestScenarioSchema>;

function bodyExpectation(expect: z.output<typeof requestScenarioSchema>['expect']): BodyExpectation {
  if (expect.body !== undefined) {
    const bytes = Buffer.from(expect.body);
    return { kind: 'exact', length: bytes.length, bytes: () => bytes };
  }
  if (expect.bodyMatches !== undefined) return { kind: 'matches', pattern: expect.bodyMatches };
  if (expect.json !== undefined) return { kind: 'json', subset: expect.json };
  return { kind: 'any' };
}

/** A scenario from a request spec (validated by requestScenarioSchema). */
export function requestScenario(input: RequestScenarioSpec): Scenario {
  const spec = requestScenarioSchema.parse(input);
  const headers: Record<string, string> = { ...spec.headers };
  let body: Buffer | undefined;
  if (typeof spec.body === 'string') body = Buffer.from(spec.body);
  else if (spec.body !== undefined) {
    body = Buffer.from(JSON.stringify(spec.body));
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  const method = spec.method.toUpperCase();
  return {
    name: spec.name,
    title: spec.title ?? `${method} ${spec.path}`,
    from: [],
    description: `${method} ${spec.path} on the app's own server`,
    services: [],
    request: { method, path: spec.path, headers, ...(body ? { body } : {}) },
    expect: {
      ...(spec.expect.status !== undefined ? { status: spec.expect.status } : {}),
      ...(spec.expect.contentType !== undefined ? { contentType: spec.expect.contentType } : {}),
      headers: {},
      body: bodyExpectation(spec.expect),
    },
  };
}
