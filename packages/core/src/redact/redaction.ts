import { hideForms, REDACTED, secretForms } from './hidden-values.js';
/** Headers whose values are secret in every run, whatever --redact names. */
export const SECRET_HEADERS = ['Authorization', 'Proxy-Authorization', 'Cookie'] as const;

// A value this short is redacted where it stands (a header, a URL's user info, a query parameter) but not searched
// for in free text: replacing every "ab" of a report would wreck the report and say nothing.
const SHORTEST_SEARCHED = 4;

// Fields of a results document that hold encoded data or timestamps: no secret reaches them, and a short secret
// replaced inside a base64 histogram would break it.
const OPAQUE_FIELDS = new Set(['data', 'stacks', 'startedAt', 'finishedAt']);

// Fields all of whose values are secret, whatever their names: the headers sent to an output's receiver.
const SECRET_FIELDS = new Set(['outHeaders']);

// `scheme://user:password@` anywhere in text (not `scheme://[user@]host`, a form's description)
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"<>[][^\s/?#@'"<>]*@/gi;

const TEMPLATE_ONLY = /^\{\{[^}]*\}\}$/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Where a run's secrets come from: the requests it sends, the URLs it uses, what the user and the config name. */
export interface SecretSources {
  /** Header and query-parameter names whose values are secret besides SECRET_HEADERS (--redact), matched without case. */
  readonly names?: readonly string[];
  /** Every set of headers the run sends (-H, the scenarios'): the values of the secret names among them. */
  readonly headers?: readonly Readonly<Record<string, string>>[];
  /** Header sets every value of which is secret (--out-header, for a receiver). */
  readonly secretHeaders?: readonly Readonly<Record<string, string>>[];
  /** URLs and request paths the run uses: their user info and the secret names' query values. */
  readonly urls?: readonly string[];
  /** Values a config marks secret, with where the config holds each (when it holds them in its data). */
  readonly values?: readonly { readonly where?: string; readonly value: string }[];
  /** The hosts reached over SSH (ssh://user@host): the user part, hidden wherever it stands before an @. */
  readonly sshUrls?: readonly string[];
}

/**
 * The one list of what is secret in a run, and the one way it is hidden: every place a run writes or shows text
 * (results, reporters, journal, history, dashboard, outputs' labels, progress, errors) goes through `text` or
 * `value`. Only what is written changes: the requests still carry every value.
 */
export class Redaction {
  /** What was redacted, as results record it (`header Authorization`, `query token`, `user info`, `config defaults.headers.X-Key`). */
  readonly names: readonly string[];
  private readonly secretNames: ReadonlySet<string>;
  private readonly searched: readonly string[];
  private readonly query: RegExp;
  private readonly sshUsers: readonly string[];

  constructor(sources: SecretSources = {}) {
    const secretNames = new Set([...SECRET_HEADERS, ...(sources.names ?? [])].map((n) => n.toLowerCase()));
    const names = new Set<string>();
    const values = new Set<string>();
    const headerValue = (name: string, value: string) => {
      names.add(`header ${name}`);
      // a generated or captured value's template ({{token}}) names no secret: the value it stands for is the secret,
      // and messages that quote the template must stay readable
      for (const part of credentialParts(name, value)) if (!TEMPLATE_ONLY.test(part)) values.add(part);
    };
    for (const headers of sources.headers ?? [])
      for (const [name, value] of Object.entries(headers)) if (secretNames.has(name.toLowerCase())) headerValue(name, value);
    for (const headers of sources.secretHeaders ?? []) for (const [name, value] of Object.entries(headers)) headerValue(name, value);
    for (const text of sources.urls ?? []) {
      const url = parseLoosely(text);
      if (!url) continue;
      if (url.username || url.password) {
        names.add('user info');
        const userInfo = url.password ? `${url.username}:${url.password}` : url.username;
        const decoded = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
        // and the Basic authorization a request with this URL carries
        const basic = Buffer.from(decoded).toString('base64');
        for (const part of [userInfo, url.password, safeDecode(url.password), safeDecode(userInfo), decoded, basic])
          if (part) values.add(part);
      }
      for (const [name, value] of url.searchParams)
        if (secretNames.has(name.toLowerCase()) && value) {
          names.add(`query ${name}`);
          values.add(value);
          values.add(encodeURIComponent(value));
        }
    }
    for (const { where, value } of sources.values ?? []) {
      if (where !== undefined) names.add(`config ${where}`);
      values.add(value);
    }
    // an SSH user is hidden as `user@`, not as a word: `bench` or `root` are everywhere in a report
    const sshUsers = new Set<string>();
    for (const text of sources.sshUrls ?? []) {
      const user = parseLoosely(text)?.username;
      if (user) sshUsers.add(safeDecode(user));
    }
    if (sshUsers.size > 0) names.add('ssh user');
    this.sshUsers = [...sshUsers];
    this.names = [...names].sort();
    this.secretNames = secretNames;
    // each as written in a JSON string and as a quote of a server's bytes shows it (a `"` or `\\` escaped), the longest first
    this.searched = secretForms(values).filter((v) => v.length >= SHORTEST_SEARCHED);
    const queryNames = [...secretNames].map(escapeRegExp).join('|');
    this.query = new RegExp(`([?&;](?:${queryNames})=)[^&#\\s'"<>]*`, 'gi');
  }

  /** Every secret value searched for in text (four characters or longer), longest first. */
  get values(): readonly string[] {
    return this.searched;
  }

  /** Text as it may be written: URLs' user info, the secret names' query values and every secret value replaced. */
  text(text: string): string {
    let out = text.replace(USER_INFO, `$1${REDACTED}@`);
    out = out.replace(this.query, `$1${REDACTED}`);
    out = hideForms(out, this.searched);
    for (const user of this.sshUsers) out = out.split(`${user}@`).join(`${REDACTED}@`);
    return out;
  }

  /** A command line as a results file records it: each `Name: value` argument of a secret header (any of --out-header's) without its value, then as `text`. */
  commandLine(args: readonly string[]): string {
    return args
      .map((arg, i) => {
        const header = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:(.*)$/.exec(arg);
        const secret = header && (this.secretNames.has(header[1]!.toLowerCase()) || args[i - 1] === '--out-header');
        return this.text(secret ? `${header[1]}: ${REDACTED}` : arg);
      })
      .join(' ');
  }

  /** A copy of plain data (a results document, a cell, a journal line) with every string as `text` gives it and every secret field's value replaced. */
  value<T>(data: T): T {
    return this.walk(data, false) as T;
  }

  /** The same error, its message (and stack) as `text` gives them: what the terminal prints. */
  error<E>(error: E): E {
    if (!(error instanceof Error)) return (typeof error === 'string' ? this.text(error) : error) as E;
    for (const key of ['message', 'stack'] as const) {
      const text = error[key];
      if (typeof text === 'string') Object.defineProperty(error, key, { value: this.text(text), configurable: true, writable: true });
    }
    if (error.cause !== undefined) this.error(error.cause);
    return error;
  }

  private walk(data: unknown, secret: boolean): unknown {
    if (typeof data === 'string') return secret ? REDACTED : this.text(data);
    if (Array.isArray(data)) return data.map((item) => this.walk(item, secret));
    if (!isPlainObject(data)) return data;
    return Object.fromEntries(
      Object.entries(data).map(([key, value]) => [
        key,
        OPAQUE_FIELDS.has(key) && !secret
          ? value
          : this.walk(value, secret || SECRET_FIELDS.has(key) || this.secretNames.has(key.toLowerCase())),
      ]),
    );
  }
}

/** No secret but what any run has: URLs' user info and the always-secret headers. */
export const defaultRedaction = new Redaction();

// A header's value and the parts of it that may be written on their own: an Authorization's credentials after its
// scheme (and a Basic one decoded), each cookie's value.
function credentialParts(name: string, value: string): string[] {
  const parts = [value.trim()];
  const lower = name.toLowerCase();
  if (lower.endsWith('authorization')) {
    const credentials = /^\S+\s+(.+)$/.exec(value.trim())?.[1];
    if (credentials) {
      parts.push(credentials);
      if (/^basic\s/i.test(value.trim())) {
        // user:password, and the password alone (a server may echo either)
        const decoded = Buffer.from(credentials, 'base64').toString('utf8');
        parts.push(decoded);
        const colon = decoded.indexOf(':');
        if (colon >= 0) parts.push(decoded.slice(colon + 1));
      }
    }
  } else if (lower === 'cookie') {
    for (const pair of value.split(';')) {
      const cookie = pair.slice(pair.indexOf('=') + 1).trim();
      if (pair.includes('=') && cookie) parts.push(cookie);
    }
  }
  return parts.filter((p) => p.length > 0);
}

// A URL, or a request path with its query (`/items?token=...`)
function parseLoosely(text: string): URL | undefined {
  try {
    return new URL(text, 'http://path.invalid');
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
