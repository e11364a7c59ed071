import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fastify from 'fastify';
import { contentTypeMatches, loadScenarios, type NodeScenarioModule } from '@bench/core';
import { bigBlock, escapeBody, escapeHtml, escapePage, largeBinary, loopBody, staticPage, table9x9 } from './lib/bodies.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const scenarios = loadScenarios(here);
const exact = (scenario: (typeof scenarios)[number]) => {
  if (scenario.expect.body.kind !== 'exact') throw new Error(`${scenario.name}: reference scenarios expect exact bodies`);
  return scenario.expect.body;
};
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

describe('scenario manifests', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s: manifest is valid and its fixture matches', (_name, scenario) => {
    expect(scenario.description.length).toBeGreaterThan(20);
    // TechEmpower's rows and pages differ per request or per stack: TFB's rules check them when verified
    if (scenario.tfb && scenario.expect.body.kind === 'any') return;
    const body = exact(scenario).bytes(); // throws when length or sha256 differ from the manifest
    expect(body.length).toBe(exact(scenario).length);
  });

  it('the generator is deterministic: bodies built again hash the same as the manifests say', () => {
    const manifestSha = (name: string) =>
      (JSON.parse(readFileSync(path.join(here, name, 'scenario.json'), 'utf8')) as { body: { sha256?: string } }).body.sha256;
    expect(sha(staticPage())).toBe(manifestSha('file'));
    expect(sha(bigBlock())).toBe(manifestSha('big'));
    expect(sha(loopBody())).toBe(manifestSha('loop'));
    expect(sha(table9x9())).toBe(manifestSha('table-9x9'));
    expect(sha(largeBinary())).toBe(manifestSha('large-file'));
    expect(sha(escapeBody())).toBe(manifestSha('escape'));
    expect(sha(escapePage())).toBe(manifestSha('escape-400'));
  });

  it("escape-400 answers the article's 400 bytes from the same 100 lines escape joins", () => {
    expect(Buffer.byteLength(escapePage())).toBe(400);
    const lines = escapeBody().split('\n');
    expect(escapePage()).toContain(`<p>${lines[0]}</p>\n<p>${lines[99]}</p>\n<p>100 strings escaped, ${lines.join('').length} bytes</p>`);
  });

  it('escapes as htmlspecialchars with ENT_QUOTES does', () => {
    expect(escapeHtml(`<a href="x">Tom's & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom&#039;s &amp; Jerry&#039;s&lt;/a&gt;');
  });
});

describe('Node handlers, in process', () => {
  const plain = scenarios.filter((s) => s.services.length === 0);
  it.each(plain.map((s) => [s.name, s] as const))('%s answers its exact body', async (_name, scenario) => {
    const app = fastify();
    const module = (await import(`./${scenario.name}/node.ts`)) as { default: NodeScenarioModule<typeof app> };
    await module.default(app, { scenario, folder: scenario.folder!, services: {}, pool: { enabled: false, size: 1 } });
    const response = await app.inject({ method: 'GET', url: scenario.request.path });
    await app.close();
    expect(response.statusCode).toBe(200);
    expect(contentTypeMatches(scenario.expect.contentType ?? '', String(response.headers['content-type']))).toBe(true);
    expect(response.rawPayload.equals(exact(scenario).bytes())).toBe(true);
  });
});
