import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fastify from 'fastify';
import { loadScenarios, scenariosDir, type NodeScenarioModule } from '@bench/core';
import { bigBlock, escapeBody, escapeHtml, largeBinary, loopBody, staticPage, table9x9 } from './lib/bodies.js';

const scenarios = loadScenarios(scenariosDir());
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

describe('scenario manifests', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s: manifest is valid and its fixture matches', (_name, scenario) => {
    const body = scenario.expectedBody(); // throws when length or sha256 differ from the manifest
    expect(body.length).toBe(scenario.expectedLength);
    expect(scenario.description.length).toBeGreaterThan(20);
  });

  it('the generator is deterministic: bodies built again hash the same as the manifests say', () => {
    const byName = new Map(scenarios.map((s) => [s.name, s]));
    const manifestSha = (name: string) => {
      const body = byName.get(name)?.body;
      return body && 'sha256' in body ? body.sha256 : undefined;
    };
    expect(sha(staticPage())).toBe(manifestSha('file'));
    expect(sha(bigBlock())).toBe(manifestSha('big'));
    expect(sha(loopBody())).toBe(manifestSha('loop'));
    expect(sha(table9x9())).toBe(manifestSha('table-9x9'));
    expect(sha(largeBinary())).toBe(manifestSha('large-file'));
    expect(sha(escapeBody())).toBe(manifestSha('escape'));
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
    await module.default(app, { scenario, services: {}, pool: { enabled: false, size: 1 } });
    const response = await app.inject({ method: 'GET', url: scenario.path });
    await app.close();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(new RegExp(scenario.contentType));
    expect(response.rawPayload.equals(scenario.expectedBody())).toBe(true);
  });
});
