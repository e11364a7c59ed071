// Per-connection hooks installed into autocannon's clients through its `setupClient` option.
import type { Socket } from 'node:net';
import { BoundedBody } from '@bench/core/load-thread';
import type { ConnectionTimer } from '@bench/core';

/** The slice of autocannon's Client that bench touches. */
interface AutocannonClient {
  opts: { verifyBody?: (body: string) => boolean };
  on(event: 'headers', listener: (info: { headers: string[]; shouldKeepAlive?: boolean }) => void): void;
  on(event: 'response', listener: () => void): void;
  /** The requests in flight; addBody takes each slice of the oldest one's body as the parser frames it. */
  pipelinedRequests: { addBody(data: Buffer): void };
  _doRequest: () => void;
  _resetConnection: () => void;
  _connect: () => void;
  conn?: Socket;
}

/** What keepBodyBytes touches of a client. */
export type BodyClient = Pick<AutocannonClient, 'on' | 'pipelinedRequests'>;

/**
 * Keeps each answer's body as bytes, up to `limit` (BoundedBody: past it, only counted). autocannon adds each slice of
 * a body to a string, which turns a character cut between two slices (two reads, two chunks) into two U+FFFD and
 * miscounts its bytes; bench keeps the slices instead, and `take()` hands over the body of the answer just framed
 * (autocannon runs here keep one request in flight per connection). A body left by an answer that never finished is
 * dropped when the next answer's head arrives.
 */
export function keepBodyBytes(client: BodyClient, limit: number): { take(): { body: Buffer; total: number; over: boolean } } {
  const kept = new BoundedBody(limit);
  client.on('headers', () => kept.reset());
  client.pipelinedRequests.addBody = (data: Buffer) => kept.push(data);
  return {
    take: () => {
      const taken = { body: kept.bytes(), total: kept.total, over: kept.over };
      kept.reset();
      return taken;
    },
  };
}

/**
 * Checks every response body, given as its bytes (at most `limit` of them: a longer body fails); `onBody` hears each
 * one's length and whether it passed.
 */
export function installBodyCheck(
  client: AutocannonClient,
  check: ((body: Buffer) => boolean) | undefined,
  limit: number,
  onBody: (length: number, matches: boolean) => void,
): void {
  const bodies = keepBodyBytes(client, check === undefined ? 0 : limit);
  client.opts.verifyBody = () => {
    const { body, total, over } = bodies.take();
    const matches = check === undefined || (!over && check(body));
    onBody(total, matches);
    return matches;
  };
}

/**
 * Opens a new connection after a response when the run has keep-alive off (as ab does without -k)
 * or when the server said it will close (`Connection: close`, HTTP/1.0). autocannon does neither
 * on its own: its `reconnectRate: 1` drops every response from its counts (measured: 0 requests
 * counted at 5,668 connections), and it writes the next request on a socket the server is closing.
 * bench closes the socket itself once the response has been counted, and sends the next request
 * on a fresh one.
 */
export function installConnectionPolicy(
  client: AutocannonClient,
  keepAlive: boolean,
  onKeptAlive: () => void = () => {},
  requestsPerConnection = Infinity,
): void {
  const sendOnSameSocket = client._doRequest;
  let serverWillClose = false;
  let reconnect = false;
  let onThisConnection = 0;
  client.on('headers', (info) => {
    serverWillClose = info.shouldKeepAlive === false;
  });
  client.on('response', () => {
    onThisConnection++;
    reconnect = !keepAlive || serverWillClose || onThisConnection >= requestsPerConnection;
    if (reconnect) onThisConnection = 0;
    else onKeptAlive();
    serverWillClose = false;
  });
  client._doRequest = function doRequestOnLiveSocket(this: AutocannonClient) {
    if (reconnect) {
      reconnect = false;
      // _resetConnection opens a new socket and sends the next request on it through _doRequest.
      return this._resetConnection();
    }
    return sendOnSameSocket.call(this);
  };
}

/** Times every connection the client opens: autocannon opens each one (reconnects too) through `_connect`. */
export function installConnectionTimer(client: AutocannonClient, timer: ConnectionTimer): void {
  const connect = client._connect;
  client._connect = function timedConnect(this: AutocannonClient) {
    connect.call(this);
    if (this.conn) timer.watch(this.conn);
  };
}
