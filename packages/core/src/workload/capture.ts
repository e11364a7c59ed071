import type { CaptureSpec } from './capture-schema.js';

/** Response headers, by name in any case; a repeated header as a list. */
export type AnswerHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** `items[0].id`, `$.data.token`: the keys and indexes of a JSON path, in order. */
function pathKeys(jsonPath: string): string[] {
  return jsonPath
    .replace(/^\$\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((key): key is string => key !== undefined && key !== '');
}

function fromJson(body: string, jsonPath: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  for (const key of pathKeys(jsonPath)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function fromHeader(headers: AnswerHeaders, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    return typeof value === 'string' ? value : value[0];
  }
  return undefined;
}

/** A capture compiled once: the value it takes from an answer, or undefined when the answer holds none. */
export type Capture = (headers: AnswerHeaders, body: string) => string | undefined;

export function compileCapture(spec: CaptureSpec): Capture {
  if ('json' in spec) return (_headers, body) => fromJson(body, spec.json);
  if ('header' in spec) return (headers) => fromHeader(headers, spec.header);
  const pattern = new RegExp(spec.regex);
  return (_headers, body) => {
    const match = pattern.exec(body);
    return match ? (match[1] ?? match[0]) : undefined;
  };
}

/** The capture as a user wrote it, for messages. */
export function describeCapture(spec: CaptureSpec): string {
  if ('json' in spec) return `json ${spec.json}`;
  if ('header' in spec) return `header ${spec.header}`;
  return `regex /${spec.regex}/`;
}
