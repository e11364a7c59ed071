// A workload in autocannon: each client (virtual user) gets a cursor of bench's in place of autocannon's request
// iterator (whose context autocannon clears on every pass of a one-request list), so captures, once steps, mixes and
// generated values live with the connection; think time defers the client's next write.
import type { CompiledStep, CompiledWorkload } from '@bench/core';
import { encodeHttp1Request } from '../http1-request.js';
import { keepBodyBytes, type BodyClient } from './client-setup.js';

/** A request as autocannon queues it: its bytes, and the step it belongs to (handed back with its answer). */
interface QueuedRequest {
  readonly requestBuffer: Buffer;
  readonly step: CompiledStep;
  thought?: boolean;
}

/** The slice of autocannon's Client a workload touches. */
export interface WorkloadAutocannonClient extends BodyClient {
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

/** Headers as autocannon hands them over: a flat [name, value, name, value...] list. */
function headerMap(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) headers[raw[i]!.toLowerCase()] ??= raw[i + 1]!;
  return headers;
}

/**
 * Installs a workload cursor into one autocannon client. Each answer is checked against its step as its body arrives
 * (before autocannon's 'response' event, which the engine pairs with `lastAnswer()` for the step's latency). A request
 * the cursor refuses (a captured value that would break it) is not sent: `onRefused` counts it, and the connection's
 * next request (its once steps, as it starts over) takes its place.
 */
export function installWorkload(
  client: WorkloadAutocannonClient,
  workload: CompiledWorkload,
  o: {
    readonly host: string;
    readonly keepAlive: boolean;
    /** The bytes of a body kept for a step's check or captures, at most. */
    readonly maxCheckedBody: number;
    readonly onRefused: (step: CompiledStep, message: string) => void;
  },
): { lastAnswer(): StepAnswer | undefined } {
  const cursor = workload.connection();
  const build = (): QueuedRequest => {
    let rendered = cursor.next();
    // a refused request starts its connection over with no captured value: the next one cannot be refused
    while ('refused' in rendered) {
      o.onRefused(rendered.step, rendered.refused);
      rendered = cursor.next();
    }
    const requestBuffer = encodeHttp1Request(
      { method: rendered.method, target: rendered.path, host: o.host, headers: rendered.headers, body: rendered.body },
      o.keepAlive,
    );
    return { requestBuffer, step: rendered.step };
  };
  // each body as bytes: counted as they came, decoded once whole
  const bodies = keepBodyBytes(client, o.maxCheckedBody);
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
    recordBody(request: QueuedRequest | undefined, status: number, _text: string, rawHeaders: string[] | undefined) {
      if (!request) return;
      const { body, total: bodyBytes, over } = bodies.take();
      const headers = headerMap(rawHeaders ?? []);
      const problem = cursor.answered(request.step, status, headers, body.toString('utf8'), bodyBytes, over ? o.maxCheckedBody : undefined);
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
