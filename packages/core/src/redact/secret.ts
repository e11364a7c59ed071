// Values a config marks secret. The mark must reach the run from a config loaded by jiti (which may load its own copy
// of this package), so the values are kept on globalThis under a registered symbol, not in a module variable.
const REGISTRY = Symbol.for('@bench/runner: secret values');

function registry(): Set<string> {
  const holder = globalThis as { [REGISTRY]?: Set<string> };
  return (holder[REGISTRY] ??= new Set());
}

/**
 * Marks a value of a config secret: `headers: { 'X-Api-Key': secret(process.env.API_KEY!) }`. It is sent as it is,
 * and reads `[redacted]` in everything the run writes or shows. In a JSON config: `{ "$secret": "value" }`.
 */
export function secret(value: string): string {
  registry().add(value);
  return value;
}

const isSecretObject = (value: unknown): value is { $secret: string } =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 1 &&
  typeof (value as { $secret?: unknown }).$secret === 'string';

/** A config's data with each `{ "$secret": "value" }` replaced by its value, marked secret. */
export function unwrapSecrets(data: unknown): unknown {
  if (isSecretObject(data)) return secret(data.$secret);
  if (Array.isArray(data)) return data.map(unwrapSecrets);
  if (typeof data !== 'object' || data === null || Object.getPrototypeOf(data) !== Object.prototype) return data;
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, unwrapSecrets(value)]));
}

/** Every value marked secret, with where `data` (a config, the options given) holds it: `defaults.headers.X-Api-Key`. */
export function secretValues(data: unknown): { where?: string; value: string }[] {
  const marked = [...registry()].filter((value) => value.length > 0);
  const where = new Map<string, string>();
  const visit = (data: unknown, path: string): void => {
    if (typeof data === 'string') {
      for (const value of marked) if (!where.has(value) && data.includes(value)) where.set(value, path);
    } else if (Array.isArray(data)) data.forEach((item, i) => visit(item, path ? `${path}.${i}` : String(i)));
    else if (typeof data === 'object' && data !== null)
      for (const [key, value] of Object.entries(data)) visit(value, path ? `${path}.${key}` : key);
  };
  visit(data, '');
  return marked.map((value) => ({ ...(where.has(value) ? { where: where.get(value)! } : {}), value }));
}
