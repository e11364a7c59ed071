import { describe, expect, it } from 'vitest';
import { parseSshUrl } from './ssh-url.js';

describe('parseSshUrl', () => {
  it('reads ssh://[user@]host[:port], naming the host without its user', () => {
    expect(parseSshUrl('--server-host', 'ssh://bench@10.0.0.2:2222')).toEqual({
      url: 'ssh://bench@10.0.0.2:2222',
      user: 'bench',
      host: '10.0.0.2',
      port: 2222,
      label: '10.0.0.2:2222',
    });
    expect(parseSshUrl('--server-host', 'ssh://lab-server')).toEqual({ url: 'ssh://lab-server', host: 'lab-server', label: 'lab-server' });
    expect(parseSshUrl('--server-host', 'ssh://[::1]:22')).toMatchObject({ host: '::1', port: 22 });
  });

  it('refuses what is not one, in a line that shows the form', () => {
    for (const [text, why] of [
      ['10.0.0.2', 'is not a URL'],
      ['http://10.0.0.2', 'is a http URL, not ssh'],
      ['ssh://bench:secret@10.0.0.2', 'holds a password'],
      ['ssh://10.0.0.2/srv', 'has a path'],
    ] as const)
      expect(() => parseSshUrl('--server-host', text)).toThrow(new RegExp(`${why}.*give ssh://\\[user@\\]host\\[:port\\]`));
  });
});
