import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { FoldedStacks } from './folded-stacks.js';
import { foldJfrSamples, truncatedJfrNote } from './jfr-profiler.js';
import { foldPerfScript } from './perf-profiler.js';
import { foldV8Profile } from './v8-profiler.js';

describe("each profiler's output as folded stacks", () => {
  it("V8's .cpuprofile: frames named with their file and line, (root) left out, (idle) samples dropped", () => {
    const frame = (functionName: string, url = '', lineNumber = -1) => ({ functionName, url, lineNumber });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 4, 5] },
        { id: 2, callFrame: frame('handle', 'file:///app/src/server.mjs', 9), children: [3] },
        { id: 3, callFrame: frame('', 'file:///app/node_modules/fastify/lib/reply.js', 99) },
        { id: 4, callFrame: frame('(idle)') },
        { id: 5, callFrame: frame('writeHead', 'node:_http_server', 349) },
      ],
      samples: [3, 3, 2, 4, 4, 4, 5],
    };
    // a built-in target has no folder: its files are named by their name alone
    const named: FoldedStacks = new Map();
    foldV8Profile(profile, named);
    expect([...named]).toEqual([
      ['handle server.mjs:10;(anonymous) fastify/lib/reply.js:100', 2],
      ['handle server.mjs:10', 1],
      ['writeHead node:_http_server:350', 1],
    ]);
    // an app target's files are named from its folder; a worker thread's stacks go under a frame naming it
    const relative: FoldedStacks = new Map();
    foldV8Profile(profile, relative, { folder: '/app', root: '(worker thread src/hash.mjs)' });
    expect([...relative][0]).toEqual(['(worker thread src/hash.mjs);handle src/server.mjs:10;(anonymous) fastify/lib/reply.js:100', 2]);
  });

  it("does so in a live profile from this Node's own V8 (its inlining differs from one version to the next)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-v8-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // main calls handle, which calls checksum, hot for 600 ms: long enough for the optimising compiler to inline them
    const source = [
      'function checksum(text) {', // line 1
      '  let sum = 0;',
      '  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);',
      '  return sum;',
      '}',
      'function handle(text) {', // line 6
      '  return checksum(text) + 1;',
      '}',
      'function main(ms) {', // line 9
      '  let n = 0;',
      '  const end = Date.now() + ms;',
      "  while (Date.now() < end) n += handle('x'.repeat(64));",
      '  return n;',
      '}',
      'console.log(main(600) > 0);',
    ];
    writeFileSync(path.join(dir, 'app.mjs'), source.join('\n'));
    execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '200', path.join(dir, 'app.mjs')]);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
    const stacks: FoldedStacks = new Map();
    foldV8Profile(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), stacks);
    const samples = (pattern: RegExp) => [...stacks].filter(([stack]) => pattern.test(stack)).reduce((sum, [, n]) => sum + n, 0);
    // most of main's time is checksum's loop, named under its caller whether V8 inlined it or not
    expect(samples(/main app\.mjs:9;(.+;)?checksum app\.mjs:1( \[inferred\])?$/) / samples(/main app\.mjs:9/)).toBeGreaterThan(0.5);
  });

  it("perf script's call chains: leaf first in, root first out, under the process's name", () => {
    const text = [
      'nginx  1234 ',
      '\tffffffff8100 do_syscall_64+0x46 ([kernel.kallsyms])',
      '\t55aa01 ngx_http_process_request+0x2c (/usr/sbin/nginx)',
      '\t55aa02 [unknown] (/usr/sbin/nginx)',
      '',
      'nginx  1234 ',
      '\t55aa01 ngx_http_process_request+0x10 (/usr/sbin/nginx)',
      '',
    ].join('\n');
    const stacks: FoldedStacks = new Map();
    foldPerfScript(text, stacks);
    expect([...stacks]).toEqual([
      ['nginx;[nginx];ngx_http_process_request;do_syscall_64', 1],
      ['nginx;ngx_http_process_request', 1],
    ]);
  });

  it("jfr print --json's execution samples: class and method, root first", () => {
    const frame = (type: string, name: string) => ({ method: { name, type: { name: type } } });
    const json = JSON.stringify({
      recording: {
        events: [
          {
            values: {
              stackTrace: {
                frames: [frame('java/lang/Integer', 'getChars'), frame('bench.Servlet', 'doGet'), frame('java.lang.Thread', 'run')],
              },
            },
          },
        ],
      },
    });
    const stacks: FoldedStacks = new Map();
    foldJfrSamples(json, stacks);
    expect([...stacks]).toEqual([['java.lang.Thread.run;bench.Servlet.doGet;java.lang.Integer.getChars', 1]]);
  });

  it('puts a stack the Flight Recorder cut short under a frame that says so, and counts it', () => {
    const frame = (name: string) => ({ method: { name, type: { name: 'A' } } });
    const json = JSON.stringify({
      recording: {
        events: [
          { values: { stackTrace: { truncated: true, frames: [frame('leaf'), frame('deep')] } } },
          { values: { stackTrace: { truncated: false, frames: [frame('leaf'), frame('run')] } } },
        ],
      },
    });
    const stacks: FoldedStacks = new Map();
    const counted = foldJfrSamples(json, stacks);
    expect([...stacks]).toEqual([
      ['[truncated stack];A.deep;A.leaf', 1],
      ['A.run;A.leaf', 1],
    ]);
    expect(counted).toEqual({ samples: 2, truncated: 1 });
    expect(truncatedJfrNote(counted)).toMatch(
      /^1 of 2 Java samples had stacks deeper than the Flight Recorder kept .* \[truncated stack\]$/,
    );
    expect(truncatedJfrNote({ samples: 2, truncated: 0 })).toBeUndefined();
  });

  it('keeps the JFR samples of the measured window only (the recording began before the warm-up)', () => {
    const sample = (startTime: string, method: string) => ({
      values: { startTime, stackTrace: { frames: [{ method: { name: method, type: { name: 'A' } } }] } },
    });
    const json = JSON.stringify({
      recording: {
        events: [
          sample('2026-01-01T00:00:01.999999999Z', 'warm'),
          sample('2026-01-01T00:00:02.500000001Z', 'measured'),
          sample('2026-01-01T00:00:04.1Z', 'after'),
        ],
      },
    });
    const stacks: FoldedStacks = new Map();
    foldJfrSamples(json, stacks, { from: Date.parse('2026-01-01T00:00:02Z'), to: Date.parse('2026-01-01T00:00:04Z') });
    expect([...stacks]).toEqual([['A.measured', 1]]);
  });
});
