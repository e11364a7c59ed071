import net from 'node:net';
import type { OpenSocket, SocketOwner, WireSocket } from './wire-socket.js';

// The js core's connection on Node's public net.Socket, for a Node that refuses process.binding (its permission model)
// or has none: the same reads into the thread's shared buffer (net's `onread` option), at the cost of net's streams and
// events around each read and write.
class NetSocket implements WireSocket {
  private readonly socket: net.Socket;
  private open = true;

  constructor(owner: SocketOwner, address: string, port: number, readBuffer: Buffer) {
    // true: net keeps reading (false would pause the socket)
    const callback = (bytes: number) => {
      if (this.open) owner.socketRead(bytes);
      return true;
    };
    this.socket = net.connect({ host: address, port, noDelay: true, onread: { buffer: readBuffer, callback } });
    this.socket.on('connect', () => this.open && owner.socketConnected());
    this.socket.on('end', () => this.open && owner.socketEnded());
    this.socket.on('error', (error) => this.open && owner.socketErrored(error));
  }

  write(data: Buffer): void {
    if (this.open) this.socket.write(data);
  }

  destroy(): void {
    if (!this.open) return;
    this.open = false;
    this.socket.destroy();
  }
}

/** A connection on Node's public net.Socket. */
export const openNetSocket: OpenSocket = (owner, address, port, readBuffer) => new NetSocket(owner, address, port, readBuffer);
