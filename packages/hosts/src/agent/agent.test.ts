import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { errors, type RunningTarget, type Scenario, type TargetPlugin } from '@bench/core';
import { AGENT_PROTOCOL } from '../protocol/messages.js';
import { runAgent } from './agent.js';

const hello = { name: 'hello', services: [] } as unknown as Scenario;

/** A target that starts nothing real: it counts its starts and stops, and can be made to die. */
function fakeTarget() {
  const log: string[] = [];
  let die: (detail: string) => void = () => {};
  const target: TargetPlugin = {
    name: 'fake',
    language: 'none',
    description: 'a target of the test',
    supports: () => ({ ok: true }),
    available: async () => ({ ok: false, reason: 'gizmo not found (apt-get install gizmo)', aptPackages: ['gizmo'] }),
    async start(scenario, options): Promise<RunningTarget> {
      log.push(`start ${scenario.name} on ${options.host}`);
      return {
        url: `http://${options.host}:1234`,
        processGroups: [],
        settings: { fake: true },
        crashed: new Promise((resolve) => (die = resolve)),
        async stop() {
          log.push('stop');
        },
      };
    },
  };
  return { target, log, die: (detail: string) => die(detail) };
}

/** An agent on streams of the test's, as if over SSH from 10.0.0.1 to 10.0.0.2. */
function agentOnPipes(target: TargetPlugin, idleMs = 60_000) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, at)) as Record<string, unknown>);
      buffered = buffered.slice(at + 1);
    }
  });
  const ended = runAgent({
    project: { targets: [target], scenarios: [hello], doctor: async () => 'the table' },
    version: '9.9.9',
    input,
    output,
    env: { SSH_CONNECTION: '10.0.0.1 50000 10.0.0.2 22' },
    idleMs,
  });
  const send = (message: Record<string, unknown>) => input.write(`${JSON.stringify(message)}\n`);
  const seen = async (what: string, test: (line: Record<string, unknown>) => boolean) => {
    for (let i = 0; i < 400; i++) {
      const found = lines.find(test);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no ${what}; lines: ${JSON.stringify(lines)}`);
  };
  const reply = (id: number) => seen(`reply ${id}`, (line) => line.id === id);
  return { input, lines, ended, send, reply, seen };
}

describe('bench agent', () => {
  it('says hello with its version, protocol and the address its session arrived at', async () => {
    const { lines, input, ended } = agentOnPipes(fakeTarget().target);
    input.end();
    await ended;
    expect(lines[0]).toMatchObject({ event: 'hello', protocol: AGENT_PROTOCOL, bench: '9.9.9', address: '10.0.0.2' });
  });

  it("answers each request by its id, a host's availability and a stack bound to its address", async () => {
    const fake = fakeTarget();
    const agent = agentOnPipes(fake.target);
    agent.send({ id: 1, op: 'available', targets: ['fake'] });
    expect(await agent.reply(1)).toMatchObject({ ok: true, result: { fake: { ok: false, aptPackages: ['gizmo'] } } });
    agent.send({ id: 2, op: 'start-target', target: 'fake', scenarios: ['hello'], options: { services: {} } });
    expect(await agent.reply(2)).toMatchObject({ ok: true, result: { stack: 1, url: 'http://10.0.0.2:1234' } });
    expect(fake.log).toEqual(['start hello on 10.0.0.2']);
    fake.die('it fell over');
    expect(await agent.seen('crash', (line) => line.event === 'crashed')).toEqual({ event: 'crashed', stack: 1, detail: 'it fell over' });
    agent.input.end();
    await agent.ended;
  });

  it('codes its errors as bench does, and refuses what the protocol does not know', async () => {
    const agent = agentOnPipes(fakeTarget().target);
    agent.send({ id: 1, op: 'start-target', target: 'nope', scenarios: ['hello'], options: { services: {} } });
    expect(await agent.reply(1)).toMatchObject({ ok: false, error: { code: errors.unknownTarget('nope', []).code, exitCode: 2 } });
    agent.send({ id: 2, op: 'format-disk' });
    expect(await agent.reply(2)).toMatchObject({
      ok: false,
      error: { code: 'BENCH_ERR_AGENT', message: `no request "format-disk" in protocol ${AGENT_PROTOCOL}` },
    });
    agent.input.end();
    await agent.ended;
  });

  it('stops every stack when its input closes, or when its runner falls silent', async () => {
    const closed = fakeTarget();
    const first = agentOnPipes(closed.target);
    first.send({ id: 1, op: 'start-target', target: 'fake', scenarios: ['hello'], options: { services: {} } });
    await first.reply(1);
    first.input.end();
    expect(await first.ended).toBe('the runner closed its end');
    expect(closed.log).toEqual(['start hello on 10.0.0.2', 'stop']);

    const silent = fakeTarget();
    const second = agentOnPipes(silent.target, 300);
    second.send({ id: 1, op: 'start-target', target: 'fake', scenarios: ['hello'], options: { services: {} } });
    await second.reply(1);
    expect(await second.ended).toBe('the runner was silent for 0.3 s');
    expect(silent.log).toEqual(['start hello on 10.0.0.2', 'stop']);
  });
});
