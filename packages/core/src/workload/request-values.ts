// Where a template's value lands decides what it may hold. In the path (and its query) a value is percent-encoded as
// a URI component, so `New York` is sent as `New%20York` by every engine; `{{raw ...}}` sends it as it is, and then it
// must already be a well-formed request target. A header's value must not hold CR, LF or NUL, which would end its
// line (and split the request). A body's value is sent as it is.

/** Where a template stands in a request. */
export type TemplatePlace = 'path' | 'header' | 'body';

/** A template call as these rules see it: its function's name and whether it asked to be sent raw. */
interface PlacedCall {
  readonly name: string;
  readonly raw?: boolean;
}

/** Values bench makes itself (digits, a UUID's hex): nothing in them to encode or refuse. */
export const GENERATED: ReadonlySet<string> = new Set(['counter', 'randomInt', 'uuid']);

/** Whether the call's value is percent-encoded where it stands: every value in a path but a generated or raw one. */
export const isEncoded = (call: PlacedCall, place: TemplatePlace): boolean => place === 'path' && !call.raw && !GENERATED.has(call.name);

/** Whether the call's value must be checked before it is sent: a header's, and a raw one in a path. */
export const isChecked = (call: PlacedCall, place: TemplatePlace): boolean =>
  !GENERATED.has(call.name) && (place === 'header' || (place === 'path' && call.raw === true));

/** The bytes that end a header line, and NUL. */
export const HEADER_BREAK = /[\r\n\0]/;
/** Anything but printable ASCII without the space: what a request target cannot hold unencoded. */
export const NOT_IN_TARGET = /[^\x21-\x7e]/;

/** What a value that cannot stand in its place holds, said once for every engine's messages. */
export const PLACE_PROBLEMS = {
  header: 'holds CR, LF or NUL, which would end the header',
  path: 'holds a space, a control byte or a non-ASCII character, which a request target cannot carry unencoded',
} as const;

/** What a value (or a template's text) holds that cannot stand in its place, or undefined. */
export function valueProblem(place: TemplatePlace, value: string): string | undefined {
  if (place === 'header' && HEADER_BREAK.test(value)) return PLACE_PROBLEMS.header;
  if (place === 'path' && NOT_IN_TARGET.test(value)) return PLACE_PROBLEMS.path;
  return undefined;
}

/** A template of a step's request that these rules apply to, with where it stands (`path`, `header x-city`). */
export interface RequestSite {
  readonly place: 'path' | 'header';
  readonly text: string;
  readonly label: string;
}

/** A step's path, then each header's value. */
export function requestSites(step: { readonly path: string; readonly headers: Readonly<Record<string, string>> }): RequestSite[] {
  return [
    { place: 'path', text: step.path, label: 'path' },
    ...Object.entries(step.headers).map(([name, text]) => ({ place: 'header' as const, text, label: `header ${name}` })),
  ];
}

/** A value as a URI component (encodeURIComponent's set, UTF-8); a lone surrogate, which has no UTF-8, as U+FFFD. */
export function encodeValue(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(wellFormed(value));
  }
}

/** The text with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, which Node 20.12 lacks). */
function wellFormed(value: string): string {
  return Array.from(value, (c) => (c.length === 1 && c >= '\uD800' && c <= '\uDFFF' ? '\uFFFD' : c)).join('');
}

// eslint-disable-next-line no-control-regex -- ASCII is what needs no conversion
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A header's value as the bytes every engine sends: its UTF-8, one character a byte. Node's HTTP clients (verification's,
 * the open loop's undici) and bench's own request encoder write a header as latin1, a byte a character; k6 and wrk write
 * UTF-8. Handed UTF-8's bytes as characters, all of them send the same bytes (`Zürich` as 5A C3 BC 72 69 63 68).
 */
export const headerBytes = (value: string): string => (NON_ASCII.test(value) ? Buffer.from(value, 'utf8').toString('latin1') : value);

/** A value a request cannot carry, found as the request was rendered: the request is not sent. */
export class RefusedValue extends Error {}
