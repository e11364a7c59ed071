import { errors, workloadSteps, type Scenario } from '@bench/core';

/** Headers whose values are secret in every export, as in every run (the runner adds --redact's names). */
const ALWAYS_SECRET = ['authorization', 'proxy-authorization', 'cookie'];

/** What an export keeps out of its script: each secret as an environment variable the script reads. */
export interface ExportSecrets {
  /** The scenario with each secret header's value standing as its variable's marker. */
  readonly scenario: Scenario;
  /** The server's URL without user info (its credentials went into a variable, as a Basic Authorization). */
  readonly baseUrl: string;
  /** Variable name -> value: what the Secret and secrets.env hold. */
  readonly values: Readonly<Record<string, string>>;
  /** Variable name -> what it stands for (`header Authorization`). */
  readonly described: Readonly<Record<string, string>>;
}

const marker = (name: string) => `@@${name}@@`;

/**
 * Takes the secrets out of a scenario before its script is written: the values of the secret headers of its request,
 * and the user info of the URL (sent as a Basic Authorization, as k6 would send it). A workload step whose secret
 * header is a value written in the config is refused: its script builds headers per request, and a secret must not be
 * written into it (a template of a captured value is no stored secret).
 */
export function takeSecrets(scenario: Scenario, baseUrl: string, secretNames: readonly string[] = []): ExportSecrets {
  const secret = new Set([...ALWAYS_SECRET, ...secretNames.map((n) => n.toLowerCase())]);
  // a step's secret header made from a template (`Bearer {{token}}`, captured as the run goes) holds no stored secret
  if (scenario.workload)
    for (const step of workloadSteps(scenario.workload))
      for (const [name, value] of Object.entries(step.headers))
        if (secret.has(name.toLowerCase()) && !value.includes('{{'))
          throw errors.usage(
            `scenario "${scenario.name}", step "${step.name}" sends ${name}, a secret header: bench export writes no secret into a workload's script; export a scenario of one request, or give the header to the generators another way`,
          );
  const values: Record<string, string> = {};
  const described: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let next = 1;
  const take = (value: string, what: string) => {
    const name = `BENCH_SECRET_${next++}`;
    values[name] = value;
    described[name] = what;
    return marker(name);
  };
  for (const [name, value] of Object.entries(scenario.request.headers))
    headers[name] = secret.has(name.toLowerCase()) ? take(value, `header ${name}`) : value;
  const url = new URL(baseUrl);
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'authorization'))
      headers.Authorization = take(`Basic ${Buffer.from(credentials).toString('base64')}`, "header Authorization (the URL's user info)");
    url.username = '';
    url.password = '';
  }
  return {
    scenario: { ...scenario, request: { ...scenario.request, headers } },
    baseUrl: url.toString().replace(/\/+$/, ''),
    values,
    described,
  };
}

/** The script with each secret's marker, a JSON string in it, read from the environment instead. */
export function readSecretsFromEnvironment(script: string, secrets: ExportSecrets): string {
  let out = script;
  for (const name of Object.keys(secrets.values)) out = out.split(JSON.stringify(marker(name))).join(`__ENV.${name}`);
  return out;
}

/** Refuses files that would still hold a secret (a value the runner knows secret, inside a longer text). */
export function assertNoSecret(files: Readonly<Record<string, string>>, values: readonly string[]): void {
  for (const [file, text] of Object.entries(files))
    for (const value of values)
      if (value.length >= 4 && text.includes(value))
        throw errors.usage(
          `bench export would write a secret into ${file} (inside a longer value of the scenario): keep the secret in a header of its own, or give it to the generators another way`,
        );
}
