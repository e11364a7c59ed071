import { messageOf } from './errors.js';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { errors } from './errors.js';
import { serviceNames, type BodyExpectation, type Scenario } from './scenario.js';
import { tfbTestTypes } from './tfb/test-types.js';

const bodySpec = z.union([
  z.object({ text: z.string() }).strict(),
  z
    .object({ any: z.string().describe('why no body is checked under load: answers that differ per request, checked when verified') })
    .strict(),
  z.object({ file: z.string(), length: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
]);

/** scenario.json: a reference scenario, served by every stack from its own handler. */
export const scenarioManifestSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    title: z.string(),
    from: z.array(z.string()),
    description: z.string(),
    path: z.string().startsWith('/'),
    method: z.literal('GET').default('GET'),
    status: z.number().int().min(100).max(599).default(200),
    contentType: z
      .string()
      // scenario.json files before 0.2 gave a regular expression anchored with ^ ("^text/plain"): read as the prefix it meant
      .transform((value) => (value.startsWith('^') ? value.slice(1).replace(/\\(.)/g, '$1') : value))
      .describe('the media type the Content-Type header must start with, without regard to case (a charset may follow)'),
    headers: z.record(z.string(), z.string()).default({}).describe('other headers, name -> regular expression'),
    body: bodySpec,
    kind: z.enum(['static', 'dynamic']),
    staticFile: z.string().optional().describe('for static scenarios: the file, relative to the scenario folder, the URL path maps to'),
    services: z.array(z.enum(serviceNames)).default([]),
    tfb: z.enum(tfbTestTypes).optional().describe("the TechEmpower test type it is: bench verify applies TFB's rules to it"),
  })
  .strict();

export type ScenarioManifest = z.infer<typeof scenarioManifestSchema>;

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function exactBody(dir: string, body: ScenarioManifest['body']): BodyExpectation {
  if ('any' in body) return { kind: 'any' };
  if ('text' in body) {
    const bytes = Buffer.from(body.text);
    return { kind: 'exact', length: bytes.length, bytes: () => bytes };
  }
  let cached: Buffer | undefined;
  return {
    kind: 'exact',
    length: body.length,
    bytes() {
      if (cached) return cached;
      const file = path.join(dir, body.file);
      if (!existsSync(file)) throw errors.scenarioInvalid(file, 'fixture missing: run `npm run build` to generate fixtures');
      const data = readFileSync(file);
      if (data.length !== body.length || sha256(data) !== body.sha256) {
        throw errors.scenarioInvalid(
          file,
          `fixture has ${data.length} bytes / sha256 ${sha256(data)}, manifest says ${body.length} / ${body.sha256}`,
        );
      }
      return (cached = data);
    },
  };
}

function toScenario(dir: string, m: ScenarioManifest): Scenario {
  return {
    name: m.name,
    title: m.title,
    from: m.from,
    description: m.description,
    services: m.services,
    request: { method: m.method, path: m.path, headers: {} },
    expect: { status: m.status, contentType: m.contentType, headers: m.headers, body: exactBody(dir, m.body) },
    folder: {
      dir,
      fixturesDir: path.join(dir, 'fixtures'),
      kind: m.kind,
      ...(m.staticFile !== undefined ? { staticFile: m.staticFile } : {}),
    },
    ...(m.tfb !== undefined ? { tfb: m.tfb } : {}),
  };
}

/** A scenario folder: scenario.json plus its handlers and fixtures. */
export function loadScenario(dir: string): Scenario {
  const file = path.join(dir, 'scenario.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw errors.scenarioInvalid(file, messageOf(error));
  }
  const parsed = scenarioManifestSchema.safeParse(raw);
  if (!parsed.success) throw errors.scenarioInvalid(file, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return toScenario(dir, parsed.data);
}

/** Every scenario folder directly under root, in a stable order. */
export function loadScenarios(root: string): Scenario[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, entry.name, 'scenario.json')))
    .map((entry) => loadScenario(path.join(root, entry.name)))
    .sort((a, b) => a.name.localeCompare(b.name));
}
