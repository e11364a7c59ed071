import { Redaction } from '@bench/core';

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const HEADER_FLAGS = new Set(['-H', '--header']);
const SECRET_HEADER_FLAGS = new Set(['--out-header']);
const SSH_FLAGS = new Set(['--server-host', '--database-host']);

/** Each flag's values on a command line, `--flag value` and `--flag=value` alike. */
function valuesOf(argv: readonly string[], flags: ReadonlySet<string>): string[] {
  const values: string[] = [];
  argv.forEach((arg, i) => {
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0 && flags.has(arg.slice(0, eq))) values.push(arg.slice(eq + 1));
    else if (flags.has(arg) && argv[i + 1] !== undefined) values.push(argv[i + 1]!);
  });
  return values;
}

/** "Name: value" as a header, when it is one. */
function header(text: string): Record<string, string> {
  const colon = text.indexOf(':');
  return colon > 0 ? { [text.slice(0, colon).trim()]: text.slice(colon + 1).trim() } : {};
}

/**
 * The secrets a command line holds by itself, before any config or option is read: URLs' user info, secret headers
 * (-H Authorization, every --out-header), --redact's names, an ssh:// user. What bench prints before a run's own
 * redaction exists (an option's error, a crash) goes through it.
 */
export function argvRedaction(argv: readonly string[]): Redaction {
  const words = argv.flatMap((arg) => {
    const eq = arg.indexOf('=');
    return arg.startsWith('--') && eq > 0 ? [arg.slice(eq + 1)] : [arg];
  });
  const ssh = valuesOf(argv, SSH_FLAGS);
  return new Redaction({
    names: valuesOf(argv, new Set(['--redact'])).flatMap((list) => list.split(',').map((name) => name.trim())),
    headers: valuesOf(argv, HEADER_FLAGS).map(header),
    secretHeaders: valuesOf(argv, SECRET_HEADER_FLAGS).map(header),
    urls: words.filter((word) => URL_LIKE.test(word) && !ssh.includes(word)),
    sshUrls: ssh,
  });
}
