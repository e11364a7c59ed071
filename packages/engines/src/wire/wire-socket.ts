/** What a js-core connection hears from its socket. */
export interface SocketOwner {
  /** The connection is up. */
  socketConnected(): void;
  /** `bytes` were read into the shared read buffer, from its start; they are overwritten by the next read. */
  socketRead(bytes: number): void;
  /** The server closed its side. */
  socketEnded(): void;
  /** The connection failed; `error.code` names the errno (ECONNREFUSED), as classifyError reads it. */
  socketErrored(error: NodeJS.ErrnoException): void;
}

/** One client TCP connection with TCP_NODELAY, reading into a buffer the thread's connections share. */
export interface WireSocket {
  /** Writes the bytes; an error is told through socketErrored. The bytes must stay unchanged until written. */
  write(data: Buffer): void;
  /** Closes the connection (no event follows). */
  destroy(): void;
}

/** Opens a socket to address:port (a numeric IPv4 or IPv6 address) whose events go to `owner`; none is told before this returns. */
export type OpenSocket = (owner: SocketOwner, address: string, port: number, readBuffer: Buffer) => WireSocket;
