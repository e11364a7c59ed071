import { z } from 'zod';
import { answerExpectation } from './answer-expectation.js';
import type { Scenario } from './scenario.js';

const jsonValue: z.ZodType<unknown> = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()),
]);

// CR, LF and NUL end a request line or a header early: a path or header holding one would split the request that
// some engines write as text (ab's arguments, wrk's script, k6's) after verification passed on the first half.
const LINE_BREAKING = /[\r\n\0]/;

/** A request scenario, as a config file names it: a route of the app's own server, checked loosely enough for APIs. */
export const requestScenarioSchema = z
  .object({
    name: z.string().min(1),
    title: z.string().optional(),
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'an HTTP method such as GET or POST')
      .default('GET'),
    path: z
      .string()
      .startsWith('/', 'a path starting with /')
      .refine((path) => !LINE_BREAKING.test(path), 'a path without CR, LF or NUL'),
    headers: z
      .record(
        z.string().refine((name) => !LINE_BREAKING.test(name), 'a header name without CR, LF or NUL'),
        z.string().refine((value) => !LINE_BREAKING.test(value), 'a header value without CR, LF or NUL'),
      )
      .default({}),
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

/** A spec's method (upper case), headers and body text: a JSON body as JSON, with its Content-Type unless the headers name one. */
export function requestText(spec: Pick<RequestScenarioConfig, 'method' | 'headers' | 'body'>): {
  method: string;
  headers: Record<string, string>;
  body?: string;
} {
  const headers: Record<string, string> = { ...spec.headers };
  let body: string | undefined;
  if (typeof spec.body === 'string') body = spec.body;
  else if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  return { method: spec.method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) };
}

export type RequestScenarioConfig = z.output<typeof requestScenarioSchema>;

/**
 * A path as a request line carries it, the same bytes whatever engine sends it: what a URL parser makes of it (a space
 * and what is not ASCII percent-encoded, as verification and wire send them), its fragment dropped.
 */
export function wirePath(path: string): string {
  const url = new URL(path, 'http://path.invalid');
  return url.pathname + url.search;
}

/** A scenario from a request spec (validated by requestScenarioSchema). */
export function requestScenario(input: RequestScenarioSpec): Scenario {
  const parsed = requestScenarioSchema.parse(input);
  const spec = { ...parsed, path: wirePath(parsed.path) };
  const { method, headers, body: text } = requestText(spec);
  const body = text !== undefined ? Buffer.from(text) : undefined;
  return {
    name: spec.name,
    title: spec.title ?? `${method} ${spec.path}`,
    from: [],
    description: `${method} ${spec.path} on the app's own server`,
    services: [],
    request: { method, path: spec.path, headers, ...(body ? { body } : {}) },
    expect: answerExpectation(spec.expect),
  };
}
