// A workload in autocannon: each client (virtual user) gets a cursor of bench's in place of autocannon's request
// iterator (whose context autocannon clears on every pass of a one-request list), so captures, once steps, mixes and
// generated values live with the connection; think time defers the client's next write.
import type { CompiledStep, CompiledWorkload, RenderedRequest } from '@bench/core';

/** A request as autocannon queues it: its bytes, and the step it belongs to (handed back with its answer). */
interface QueuedRequest {
  readonly requestBuffer: Buffer;
  readonly step: CompiledStep;
  thought?: boolean;
}

/** The slice of autocannon's Client a workload touches. */
export interface WorkloadAutocannonClient {
  destroyed?: boolean;
  reqsMade: number;
  requestIterator: unknown;
  _doRequest: () => void;
}

/** What the engine does with each answer of a step. */
export interface StepAnswer {
  readonly step: CompiledStep;
  readonly problem?: string;
  readonly bodyBytes: number;
}

/** The request on the wire: the host from the URL, framing by Content-Length; without keep-alive, `Connection: close`. */
export function encodeRendered(host: string, request: RenderedRequest, keepAlive: boolean): Buffer {
  const lines = [`${request.method} ${request.path} HTTP/1.1`];
  const given = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
  if (!given.has('host')) lines.push(`Host: ${host}`);
  for (const [name, value] of Object.entries(request.headers)) {
    if (!['content-length', 'connection', 'transfer-encoding'].includes(name.toLowerCase())) lines.push(`${name}: ${value}`);
  }
  if (!given.has('user-agent')) lines.push('User-Agent: bench');
  lines.push(keepAlive ? 'Connection: keep-alive' : 'Connection: close');
  const body = request.body !== undefined ? Buffer.from(request.body) : undefined;
  if (body) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

/** Headers as autocannon hands them over: a flat [name, value, name, value...] list. */
function headerMap(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) headers[raw[i]!.toLowerCase()] ??= raw[i + 1]!;
  return headers;
}

/**
 * Installs a workload cursor into one autocannon client. `onAnswer` runs as each answer arrives (before autocannon's
 * 'response' event, which the engine pairs with `lastAnswer()` for the step's latency).
 */
export function installWorkload(
  client: WorkloadAutocannonClient,
  workload: CompiledWorkload,
  host: string,
  keepAlive: boolean,
): { lastAnswer(): StepAnswer | undefined } {
  const cursor = workload.connection();
  const build = (): QueuedRequest => {
    const rendered = cursor.next();
    return { requestBuffer: encodeRendered(host, rendered, keepAlive), step: rendered.step };
  };
  let upcoming: QueuedRequest | undefined;
  let last: StepAnswer | undefined;
  const iterator = {
    resetted: false,
    context: {},
    currentRequest: build(),
    nextRequest() {
      this.currentRequest = upcoming ?? build();
      upcoming = undefined;
      return this.currentRequest;
    },
    recordBody(request: QueuedRequest | undefined, status: number, body: string, rawHeaders: string[] | undefined) {
      if (!request) return;
      const bodyBytes = Buffer.byteLength(body);
      const problem = cursor.answered(request.step, status, headerMap(rawHeaders ?? []), body, bodyBytes);
      last = { step: request.step, bodyBytes, ...(problem !== undefined ? { problem: problem.message } : {}) };
    },
  };
  client.requestIterator = iterator;

  // think time: the next request is built before it is sent, and its write waits that long
  const send = client._doRequest;
  client._doRequest = function doRequestAfterThinking(this: WorkloadAutocannonClient) {
    if (this.reqsMade > 0) {
      upcoming ??= build();
      if (upcoming.step.thinkMs > 0 && !upcoming.thought) {
        upcoming.thought = true;
        setTimeout(() => {
          if (!this.destroyed) send.call(this);
        }, upcoming.step.thinkMs);
        return;
      }
    }
    send.call(this);
  };
  return { lastAnswer: () => last };
}
