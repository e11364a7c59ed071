import { isIPv6 } from 'node:net';
import { getSystemErrorName } from 'node:util';
import type { OpenSocket, SocketOwner, WireSocket } from './wire-socket.js';

// libuv's TCP handle as Node's own net.Socket drives it (the tcp_wrap and stream_wrap bindings), typed for what the
// wire engine calls. Below net.Socket's streams a read is one call with a byte count into a buffer the thread's
// connections share, and a write that the kernel takes at once allocates nothing: measured here, this halves the
// client's own CPU per request at 3,000 connections (docs/measurements.md, "The wire engine").
interface TcpHandle {
  onread: (this: TcpHandle) => void;
  /** The connection reading on this handle, and the socket it reads through (set by bench). */
  owner: SocketOwner;
  socket: RawSocket;
  connect(request: ConnectRequest, address: string, port: number): number;
  connect6(request: ConnectRequest, address: string, port: number): number;
  setNoDelay(on: boolean): number;
  useUserBuffer(buffer: Buffer): void;
  readStart(): number;
  writeBuffer(request: WriteRequest, data: Buffer): number;
  close(callback?: () => void): void;
}
interface ConnectRequest {
  oncomplete: (this: ConnectRequest, status: number) => void;
  /** The socket connecting (set by bench). */
  socket: RawSocket;
}
interface WriteRequest {
  /** Called, when a write the kernel did not take at once is done, with the handle it was written on. */
  oncomplete: (this: WriteRequest, status: number, handle: TcpHandle) => void;
  /** The bytes of a write left queued, kept alive until libuv is done with them (as Node's streams keep req.buffer). */
  buffer: Buffer | undefined;
}
interface Bindings {
  readonly TCP: new (type: number) => TcpHandle;
  readonly TCPConnectWrap: new () => ConnectRequest;
  readonly WriteWrap: new () => WriteRequest;
  readonly socketType: number;
  readonly state: Int32Array;
  readonly readBytesOrError: number;
  readonly lastWriteWasAsync: number;
  readonly endOfFile: number;
}

const binding = (name: string) => (process as unknown as { binding(name: string): Record<string, unknown> }).binding(name);

function loadBindings(): Bindings {
  const tcp = binding('tcp_wrap') as { TCP: Bindings['TCP']; TCPConnectWrap: Bindings['TCPConnectWrap']; constants: { SOCKET: number } };
  const stream = binding('stream_wrap') as {
    WriteWrap: Bindings['WriteWrap'];
    streamBaseState: Int32Array;
    kReadBytesOrError: number;
    kLastWriteWasAsync: number;
  };
  return {
    TCP: tcp.TCP,
    TCPConnectWrap: tcp.TCPConnectWrap,
    WriteWrap: stream.WriteWrap,
    socketType: tcp.constants.SOCKET,
    state: stream.streamBaseState,
    readBytesOrError: stream.kReadBytesOrError,
    lastWriteWasAsync: stream.kLastWriteWasAsync,
    endOfFile: (binding('uv') as { UV_EOF: number }).UV_EOF,
  };
}

let bindings: Bindings | undefined;

/**
 * Why this Node offers no raw TCP handles (process.binding refused, as under Node's permission model, or gone, or its
 * tcp_wrap changed), or undefined when it does.
 */
export function rawSocketsMissing(): string | undefined {
  try {
    bindings ??= loadBindings();
    return typeof bindings.TCP === 'function' && typeof bindings.WriteWrap === 'function' ? undefined : 'tcp_wrap has no TCP handle';
  } catch (error) {
    return (error as Error).message;
  }
}

const uvError = (status: number, what: string): NodeJS.ErrnoException => {
  const code = getSystemErrorName(status);
  return Object.assign(new Error(`${what} ${code}`), { code, errno: status, syscall: what });
};

// one read callback for every handle (the handle says whose it is): no closure per connection to reach at each read
function onread(this: TcpHandle): void {
  const b = bindings!;
  const bytes = b.state[b.readBytesOrError]!;
  if (bytes > 0) this.owner.socketRead(bytes);
  else if (bytes === b.endOfFile) this.owner.socketEnded();
  else if (bytes < 0) this.owner.socketErrored(uvError(bytes, 'read'));
}

// likewise one callback for every connect, and for every write left queued
function onconnect(this: ConnectRequest, status: number): void {
  this.socket.connectDone(status);
}
function onwritten(this: WriteRequest, status: number, handle: TcpHandle): void {
  this.buffer = undefined;
  handle.socket.writeDone(status);
}

// A write request for the writes of every connection of the thread: a write the kernel takes at once leaves it free
// for the next (Node looks at it only when a write is left queued, and binds it to that write until it is done).
let freeWriteRequest: WriteRequest | undefined;
function newWriteRequest(): WriteRequest {
  const request = new bindings!.WriteWrap();
  request.oncomplete = onwritten;
  request.buffer = undefined;
  return request;
}

/**
 * One client TCP connection to address:port (a numeric IPv4 or IPv6 address) on a libuv handle, with TCP_NODELAY,
 * reading into `readBuffer`.
 */
class RawSocket implements WireSocket {
  private readonly handle: TcpHandle;
  private open = true;

  constructor(
    private readonly owner: SocketOwner,
    address: string,
    port: number,
    readBuffer: Buffer,
  ) {
    const b = (bindings ??= loadBindings());
    this.handle = new b.TCP(b.socketType);
    this.handle.owner = owner;
    this.handle.socket = this;
    this.handle.useUserBuffer(readBuffer);
    this.handle.onread = onread;
    const request = new b.TCPConnectWrap();
    request.socket = this;
    request.oncomplete = onconnect;
    const status = isIPv6(address) ? this.handle.connect6(request, address, port) : this.handle.connect(request, address, port);
    // a connect refused at once (no file descriptor left, say) is told as a failed connect would be, not in the constructor
    if (status < 0) queueMicrotask(() => this.open && this.owner.socketErrored(uvError(status, 'connect')));
  }

  /** The connect asked for in the constructor ended with `status`. */
  connectDone(status: number): void {
    if (!this.open) return;
    if (status < 0) return this.owner.socketErrored(uvError(status, 'connect'));
    this.handle.setNoDelay(true);
    const reading = this.handle.readStart();
    if (reading < 0) return this.owner.socketErrored(uvError(reading, 'read'));
    this.owner.socketConnected();
  }

  /** A write left queued ended with `status`. */
  writeDone(status: number): void {
    if (status < 0 && this.open) this.owner.socketErrored(uvError(status, 'write'));
  }

  /** Writes the bytes, kept alive until libuv is done with them; an error is told through socketErrored. */
  write(data: Buffer): void {
    if (!this.open) return;
    const b = bindings!;
    const request = (freeWriteRequest ??= newWriteRequest());
    const status = this.handle.writeBuffer(request, data);
    if (status < 0) return this.owner.socketErrored(uvError(status, 'write'));
    // a write left queued keeps its request, and its bytes alive, until done: the next write takes a new request
    if (b.state[b.lastWriteWasAsync]) {
      request.buffer = data;
      freeWriteRequest = undefined;
    }
  }

  destroy(): void {
    if (!this.open) return;
    this.open = false;
    // no callback: a JavaScript call per closed handle would be spent on nothing
    this.handle.close();
  }
}

/** A connection on libuv's own TCP handle. */
export const openRawSocket: OpenSocket = (owner, address, port, readBuffer) => new RawSocket(owner, address, port, readBuffer);
