import { describe, expect, it } from 'vitest';
import { frameIdentity, scriptWhere } from './frame-names.js';

describe('frame names', () => {
  it("name a script from the target's folder, a package's file inside its package, Node's own by URL", () => {
    expect(scriptWhere('file:///ci/head/src/server.mjs', '/ci/head')).toBe('src/server.mjs');
    expect(scriptWhere('file:///ci/base/src/server.mjs', '/ci/base')).toBe('src/server.mjs');
    expect(scriptWhere('file:///ci/head/node_modules/fastify/lib/reply.js', '/ci/head')).toBe('fastify/lib/reply.js');
    expect(scriptWhere('node:internal/http/server', '/ci/head')).toBe('node:internal/http/server');
    expect(scriptWhere('file:///tmp/x/a%20b/server.mjs')).toBe('server.mjs');
  });

  it("identify a script's function by its name and file, not its line nor the inferred mark", () => {
    expect(frameIdentity('checksum server.mjs:8')).toBe('checksum server.mjs');
    expect(frameIdentity('checksum server.mjs:15 [inferred]')).toBe('checksum server.mjs');
    expect(frameIdentity('get items src/a b/page.mjs:3')).toBe('get items src/a b/page.mjs');
    // native and Java frames have no line: each is its own identity
    expect(frameIdentity('ngx_http_process_request')).toBe('ngx_http_process_request');
    expect(frameIdentity('java.lang.Integer.getChars')).toBe('java.lang.Integer.getChars');
    expect(frameIdentity('kworker/0:1')).toBe('kworker/0:1');
  });
});
