import { describe, expect, it } from 'vitest';
import { REDACTED } from './hidden-values.js';
import { Redaction } from './redaction.js';
import { secret, secretValues, unwrapSecrets } from './secret.js';

describe('Redaction', () => {
  const redaction = new Redaction({
    names: ['X-Api-Key', 'token'],
    headers: [{ Authorization: 'Bearer tok-123456', Cookie: 'a=1; session=sess-98765', 'X-Api-Key': 'key-4242', Accept: 'text/html' }],
    secretHeaders: [{ 'X-Scope-OrgID': 'tenant-77' }],
    urls: ['http://alice:pw-3131@127.0.0.1:9/items?token=q-5555&page=2'],
    values: [{ where: 'defaults.body', value: 'body-secret-1' }, { value: 'elsewhere-2' }],
  });

  it('hides every secret value in free text, the longest first, and leaves the rest', () => {
    const text =
      'sent Bearer tok-123456 then tok-123456, session=sess-98765, key-4242, tenant-77, pw-3131, body-secret-1, elsewhere-2, text/html';
    expect(redaction.text(text)).toBe(
      `sent ${REDACTED} then ${REDACTED}, session=${REDACTED}, ${REDACTED}, ${REDACTED}, ${REDACTED}, ${REDACTED}, ${REDACTED}, text/html`,
    );
  });

  it('takes a secret header whose value is a template for no secret of its own (the value it stands for is)', () => {
    const templated = new Redaction({ headers: [{ Authorization: 'Bearer {{token}}' }] });
    expect(templated.text('step get: header authorization: {{token}} (captured by step login) holds CR')).toBe(
      'step get: header authorization: {{token}} (captured by step login) holds CR',
    );
    expect(templated.text('sent Bearer {{token}}')).toBe(`sent ${REDACTED}`);
  });

  it('hides a secret as JSON and a quote of a server escape it, and the piece of it a cut sample left', () => {
    const quoted = new Redaction({ values: [{ value: 'pa"ss\\word-99' }] });
    // in a results file's JSON string, and in a sample as printable() shows it (the backslash doubled)
    expect(quoted.text('echo: pa\\"ss\\\\word-99 end')).toBe(`echo: ${REDACTED} end`);
    expect(quoted.text('echo: pa"ss\\\\word-99 end')).toBe(`echo: ${REDACTED} end`);
    // a sample cut in the middle of the secret: its start before the closing quote, its end after an opening one
    expect(redaction.text('wrong body (60 bytes): "you sent Bearer tok-1234"')).toBe(`wrong body (60 bytes): "you sent ${REDACTED}"`);
    expect(redaction.text('from byte 40: "123456 was refused"')).toBe(`from byte 40: "${REDACTED} was refused"`);
    expect(redaction.text('found nothing in: {"echo":"body-secr')).toBe(`found nothing in: {"echo":"${REDACTED}`);
    // a piece shorter than six characters is left: it says nothing
    expect(redaction.text('"tok-1"')).toBe('"tok-1"');
  });

  it("hides any URL's user info and the named query parameters, whatever their length", () => {
    expect(redaction.text('GET http://bob:x@host/p?token=ab&page=2&TOKEN=c')).toBe(
      `GET http://${REDACTED}@host/p?token=${REDACTED}&page=2&TOKEN=${REDACTED}`,
    );
    expect(new Redaction().text('postgres://u:p@db/x')).toBe(`postgres://${REDACTED}@db/x`);
  });

  it('walks plain data: secret fields whole, opaque fields untouched, the rest as text', () => {
    const data = {
      options: { headers: { Authorization: 'ab', Accept: 'x' }, outHeaders: { 'X-Other': 'v' }, url: 'http://u:p@h/' },
      histogram: { encoding: 'hdr-compressed-base64', data: 'key-4242' },
      startedAt: '2024-01-01T00:00:00Z',
      notes: ['got tok-123456'],
      count: 3,
    };
    expect(redaction.value(data)).toEqual({
      options: { headers: { Authorization: REDACTED, Accept: 'x' }, outHeaders: { 'X-Other': REDACTED }, url: `http://${REDACTED}@h/` },
      histogram: { encoding: 'hdr-compressed-base64', data: 'key-4242' },
      startedAt: '2024-01-01T00:00:00Z',
      notes: [`got ${REDACTED}`],
      count: 3,
    });
  });

  it('keeps a command line readable: a secret header argument keeps its name', () => {
    const line = redaction.commandLine(['bench', 'run', '-H', 'Cookie: a=1', '-H', 'Accept: x', '--out-header', 'X-Other: v']);
    expect(line).toBe(`bench run -H Cookie: ${REDACTED} -H Accept: x --out-header X-Other: ${REDACTED}`);
  });

  it('names what it hides, and rewrites an error in place', () => {
    expect(redaction.names).toEqual([
      'config defaults.body',
      'header Authorization',
      'header Cookie',
      'header X-Api-Key',
      'header X-Scope-OrgID',
      'query token',
      'user info',
    ]);
    const error = new Error('refused Bearer tok-123456', { cause: new Error('key-4242') });
    expect(redaction.error(error)).toBe(error);
    expect(error.message).toBe(`refused ${REDACTED}`);
    expect(error.stack).not.toContain('tok-123456');
    expect((error.cause as Error).message).toBe(REDACTED);
  });
});

describe('a Basic Authorization', () => {
  it('hides the credentials, user:password and the password alone', () => {
    const encoded = Buffer.from('ann:Hunter2-pass').toString('base64');
    const redaction = new Redaction({ headers: [{ Authorization: `Basic ${encoded}` }] });
    expect(redaction.text(`sent ${encoded}; echoed ann:Hunter2-pass and Hunter2-pass`)).toBe(
      'sent [redacted]; echoed [redacted] and [redacted]',
    );
  });
});

describe('an SSH user', () => {
  it('is hidden where it stands before an @, never as a word of its own', () => {
    const redaction = new Redaction({ sshUrls: ['ssh://bench@10.0.0.2:2222'] });
    expect(redaction.text('--server-host ssh://bench@10.0.0.2:2222')).toBe('--server-host ssh://[redacted]@10.0.0.2:2222');
    expect(redaction.text('bench@10.0.0.2: Permission denied')).toBe('[redacted]@10.0.0.2: Permission denied');
    expect(redaction.text('bench 0.1.0 on 10.0.0.2')).toBe('bench 0.1.0 on 10.0.0.2');
    expect(redaction.names).toEqual(['ssh user']);
  });
});

describe('secret values of a config', () => {
  it('unwraps { $secret } and finds where the config holds each marked value', () => {
    const config = unwrapSecrets({ defaults: { headers: { 'X-Key': { $secret: 'unwrapped-secret-1' } } }, body: { secret: 'not marked' } });
    const inline = secret('marked-inline-2');
    expect(config).toEqual({ defaults: { headers: { 'X-Key': 'unwrapped-secret-1' } }, body: { secret: 'not marked' } });
    const found = secretValues({ ...(config as object), options: { body: `x ${inline}` } });
    expect(found).toContainEqual({ where: 'defaults.headers.X-Key', value: 'unwrapped-secret-1' });
    expect(found).toContainEqual({ where: 'options.body', value: 'marked-inline-2' });
    expect(found.some((f) => f.value === 'not marked')).toBe(false);
  });
});
