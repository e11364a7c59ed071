import { errors } from '../errors.js';

// Parsers from command-line text to typed values; each error names the flag and what it expects.

export function parsePositiveInteger(option: string, raw: string): number {
  const value = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value <= 0) {
    throw errors.badNumber(option, raw, 'a whole number greater than 0');
  }
  return value;
}

export function parsePositiveNumber(option: string, raw: string): number {
  const value = Number(raw);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !Number.isFinite(value) || value <= 0)
    throw errors.badNumber(option, raw, 'a number greater than 0');
  return value;
}

export function parseNonNegativeSeconds(option: string, raw: string): number {
  const value = parseSecondsValue(raw);
  if (value === undefined || value < 0) throw errors.badNumber(option, raw, 'seconds, 0 or more (e.g. 1, 0.5, 2s)');
  return value;
}

export function parsePositiveSeconds(option: string, raw: string): number {
  const value = parseSecondsValue(raw);
  if (value === undefined || value <= 0) throw errors.badNumber(option, raw, 'seconds greater than 0 (e.g. 10, 30s, 2m)');
  return value;
}

function parseSecondsValue(raw: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(raw);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] ?? 's';
  return unit === 'ms' ? amount / 1000 : unit === 'm' ? amount * 60 : amount;
}

/** "3000,5000,7000" -> [3000, 5000, 7000], each a positive integer, duplicates dropped. */
export function parseConcurrencyList(option: string, raw: string): number[] {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) throw errors.badNumber(option, raw, 'a comma-separated list of whole numbers greater than 0');
  return [...new Set(parts.map((part) => parsePositiveInteger(option, part)))];
}

/** Names given as several arguments and/or comma-separated lists. */
export function parseNameList(values: readonly string[]): string[] {
  return [
    ...new Set(
      values
        .flatMap((value) => value.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

/** `-H "Name: value"`, as curl, ab and autocannon take it; repeatable. */
export function parseHeader(raw: string, previous: Readonly<Record<string, string>> = {}, option = '-H'): Record<string, string> {
  const at = raw.indexOf(':');
  const name = raw.slice(0, at).trim();
  if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    // the error names the header, not its value: that may be a token
    const words = raw.trim().split(/\s+/);
    const shown = at > 0 ? `${raw.slice(0, at)}: ...` : words.length > 1 ? `${words[0]} ...` : raw;
    throw errors.usage(`${option} "${shown}" must look like "Name: value"`);
  }
  const value = raw.slice(at + 1).trim();
  // a CR, LF or NUL would end the header early and start another on engines that write requests as text
  if (/[\r\n\0]/.test(value)) throw errors.usage(`${option} "${name}: ..." holds CR, LF or NUL in its value; give the value on one line`);
  return { ...previous, [name]: value };
}

/** A CPU list as taskset takes it: "1", "0-1", "0,2-3". */
export const CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

/** `--cpus server=LIST,client=LIST` (either part may be left out). */
export function parseCpus(raw: string): { server?: string; client?: string } {
  const result: { server?: string; client?: string } = {};
  for (const part of raw.split(/[;\s]+|,(?=(?:server|client)=)/).filter(Boolean)) {
    const match = /^(server|client)=(.+)$/.exec(part);
    if (!match || !CPU_LIST.test(match[2] ?? '')) {
      throw errors.usage(
        `--cpus "${raw}" must look like server=LIST,client=LIST with CPU lists as taskset takes them (e.g. server=0,client=1 or server=0-2,client=3)`,
      );
    }
    result[match[1] as 'server' | 'client'] = match[2] ?? '';
  }
  return result;
}

export function parseHttpUrl(option: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.usage(`${option} "${raw}" is not a URL: give one such as http://127.0.0.1:3000/api`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw errors.usage(`${option} "${raw}": only http:// and https:// URLs can be driven`);
  return url.href;
}

export function parseStatus(option: string, raw: string): number {
  const value = parsePositiveInteger(option, raw);
  if (value < 100 || value > 599) throw errors.badNumber(option, raw, 'an HTTP status between 100 and 599');
  return value;
}

export function parseMethod(raw: string): string {
  if (!/^[A-Za-z]+$/.test(raw)) throw errors.usage(`-m "${raw}" is not an HTTP method (GET, POST, PUT, ...)`);
  return raw.toUpperCase();
}

const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, kb: 1e3, mb: 1e6, gb: 1e9 };

/** A size in bytes: 1048576, 512KiB, 4MiB, 1GiB (or kB, MB, GB in powers of ten). */
export function parseByteSize(option: string, raw: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(raw);
  const unit = BYTE_UNITS[match?.[2]?.toLowerCase() ?? 'none'];
  const value = match && unit !== undefined ? Math.round(Number(match[1]) * unit) : NaN;
  if (!Number.isSafeInteger(value) || value <= 0) throw errors.badNumber(option, raw, 'a size in bytes, e.g. 1048576, 512KiB, 4MiB');
  return value;
}
