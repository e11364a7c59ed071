import { describe, expect, it } from 'vitest';
import { bodyMatcher } from './body-matcher.js';
import { WireConnection, type ConnectionEvents } from './wire-connection.js';
import type { SocketOwner } from './wire-socket.js';

// a socket whose writes the kernel refuses at once, as it refuses one on a connection the server has reset
function refusingWrites(code: string) {
  let owner: SocketOwner | undefined;
  const open = (o: SocketOwner) => {
    owner = o;
    return {
      write: () => owner!.socketErrored(Object.assign(new Error(`write ${code}`), { code })),
      destroy: () => {},
    };
  };
  return { open, connect: () => owner!.socketConnected() };
}

describe('a wire connection', () => {
  it('fails the requests whose write the kernel refused at once, as failed receives, none forgotten', () => {
    const failures: Array<[string, number]> = [];
    const events: ConnectionEvents = {
      connected: () => {},
      answered: () => {},
      failed: (_c, kind, _message, lost) => failures.push([kind, lost]),
      ended: () => {},
    };
    const socket = refusingWrites('EPIPE');
    const connection = new WireConnection({
      address: '127.0.0.1',
      port: 1,
      requests: Buffer.from('GET / HTTP/1.1\r\n\r\n'.repeat(2)),
      matcher: () => bodyMatcher({ kind: 'any' }),
      headOnly: false,
      depth: 2,
      readBuffer: Buffer.alloc(64),
      memo: undefined,
      openSocket: socket.open,
      events,
    });
    socket.connect();
    connection.send(2);
    expect(failures).toEqual([['receive', 2]]);
    expect([connection.closed, connection.inFlight]).toEqual([true, 0]);
  });
});
