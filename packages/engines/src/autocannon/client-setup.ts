// Per-connection hooks installed into autocannon's clients through its `setupClient` option.
import type { Socket } from 'node:net';
import type { ConnectionTimer } from '@bench/core';

/** The slice of autocannon's Client that bench touches. */
interface AutocannonClient {
  opts: { verifyBody?: (body: string) => boolean };
  on(event: 'headers', listener: (info: { headers: string[]; shouldKeepAlive?: boolean }) => void): void;
  on(event: 'response', listener: () => void): void;
  _doRequest: () => void;
  _resetConnection: () => void;
  _connect: () => void;
  conn?: Socket;
}

export interface BodyCheck {
  /** Checks a body given as text (autocannon joins each body into a string); undefined checks nothing. */
  readonly check?: (body: string, byteLength: number) => boolean;
  /** The byte length of every body that passes, when the expectation fixes it (no need to count it again). */
  readonly lengthWhenMatched?: number;
  /** Binary bodies do not survive autocannon's text: their length must come from Content-Length. */
  readonly lengthFromHeaders: boolean;
  /** Called with the body length of every response and whether it passed. */
  readonly onBody: (length: number, matches: boolean) => void;
}

function contentLength(headers: string[]): number | undefined {
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (headers[i]?.toLowerCase() === 'content-length') return Number(headers[i + 1]);
  }
  return undefined;
}

/**
 * Checks every response body. autocannon joins a body into a string and hands it to verifyBody;
 * the length comes from Content-Length for binary bodies, else from the text (a body equal to the
 * expected text has the expected length: nothing more to count on the hot path).
 */
export function installBodyCheck(client: AutocannonClient, check: BodyCheck): void {
  let declaredLength: number | undefined;
  if (check.lengthFromHeaders) {
    client.on('headers', (info) => {
      declaredLength = contentLength(info.headers);
    });
  }
  client.opts.verifyBody = (body: string) => {
    let length = declaredLength;
    declaredLength = undefined;
    let matches: boolean;
    if (length === undefined && check.lengthWhenMatched !== undefined && check.check?.(body, check.lengthWhenMatched)) {
      length = check.lengthWhenMatched;
      matches = true;
    } else {
      length ??= Buffer.byteLength(body);
      matches = check.check === undefined || check.check(body, length);
    }
    check.onBody(length, matches);
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
