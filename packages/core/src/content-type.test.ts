import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentTypeMatches } from './expectation.js';
import { requestScenario } from './request-scenario.js';
import { loadScenario } from './scenario-folder.js';

// contentType means one thing everywhere: the media type the Content-Type header starts with, without regard to case.
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-content-type-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function folderScenario(contentType: string) {
  const folder = mkdtempSync(path.join(dir, 's-'));
  const manifest = { name: 'ct', title: 't', from: [], description: 'd', path: '/', contentType, body: { text: 'x' }, kind: 'dynamic' };
  writeFileSync(path.join(folder, 'scenario.json'), JSON.stringify(manifest));
  return loadScenario(folder);
}

describe('contentType', () => {
  it('is a prefix of the header, without regard to case, a charset may follow', () => {
    expect(contentTypeMatches('text/html', 'Text/HTML; charset=UTF-8')).toBe(true);
    expect(contentTypeMatches('text/html', 'text/plain')).toBe(false);
    expect(contentTypeMatches('application/json', 'application/jsonp')).toBe(true);
  });

  it('reads the same from scenario.json and from a config request spec', () => {
    expect(folderScenario('text/plain').expect.contentType).toBe('text/plain');
    expect(requestScenario({ name: 'r', path: '/', expect: { contentType: 'text/plain' } }).expect.contentType).toBe('text/plain');
  });

  it('reads an older scenario.json, whose ^-anchored regular expression meant the same prefix', () => {
    expect(folderScenario('^text/plain').expect.contentType).toBe('text/plain');
    expect(folderScenario('^application/vnd\\.api\\+json').expect.contentType).toBe('application/vnd.api+json');
  });
});
