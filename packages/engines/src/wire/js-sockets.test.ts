import { afterEach, describe, expect, it } from 'vitest';
import { jsSockets } from './js-sockets.js';
import { openNetSocket } from './net-socket.js';
import { openRawSocket } from './raw-socket.js';

// A Node without process.binding (a future one) as the permission model's refusal is tested end to end in
// test/engines/wire-permission.test.ts: the js core takes Node's public sockets, and says so.
const process_ = process as unknown as { binding?: unknown };
const binding = process_.binding;
afterEach(() => {
  process_.binding = binding;
});

describe("the js core's sockets", () => {
  it("are Node's public net sockets where process.binding is gone, and libuv's handles where it is back", () => {
    delete process_.binding;
    expect(jsSockets(undefined)).toEqual({ open: openNetSocket, variant: 'js core on net sockets' });
    process_.binding = binding;
    expect(jsSockets(undefined)).toEqual({ open: openRawSocket, variant: 'js core' });
    expect(jsSockets('net')).toEqual({ open: openNetSocket, variant: 'js core on net sockets' });
  });
});
