import type { LoadMeasurement } from '../engine.js';
import type { HttpAnswer } from '../http.js';
import type { Scenario } from '../scenario.js';
import type { Protocol } from '../tls/protocol.js';

/** The shortest HTTP/1.x answer head there is: `HTTP/1.1 200 OK` and the blank line. */
const SHORTEST_HEAD = 'HTTP/1.1 200 OK\r\n\r\n'.length;
/** Bytes read beyond its answers an engine may account for without miscounting: heads that vary, a cut answer or two. */
const SLACK_FACTOR = 1.5;
const SLACK_BYTES = 64 * 1024;

/** The answer verification read, where every answer is alike: its body's length and its whole size on the wire. */
export interface FixedAnswer {
  readonly bodyBytes: number;
  readonly answerBytes: number;
}

/**
 * Why an engine's counts cannot be what the server sent, or undefined when they can be: fewer bytes read than the
 * answers it counted must have taken (each at least its body and the shortest head), or more bytes than its answers,
 * those cut at the end and half as much again could hold (answers read and never counted: a server that answers twice
 * to an engine that drops the second). Held to a `fixed` answer only (one body, every answer 2xx and matching it),
 * over plain HTTP/1.1; `inFlight` is the most requests the run kept open at once.
 */
export function impossibleCounts(m: LoadMeasurement, engine: string, fixed: FixedAnswer | undefined, inFlight: number): string | undefined {
  const alike = fixed !== undefined && m.non2xx === 0 && m.failures.length === 0 && m.bytes.total > 0 && m.steps === undefined;
  if (!alike) return undefined;
  const fewest = m.requests * (fixed.bodyBytes + SHORTEST_HEAD);
  if (m.bytes.total < fewest)
    return `${engine} counted ${m.requests} answers of ${fixed.bodyBytes} body bytes but read ${m.bytes.total} bytes, fewer than ${fewest} they take at the least: these counts could not be the server's`;
  const most = (m.requests + inFlight) * fixed.answerBytes * SLACK_FACTOR + SLACK_BYTES;
  if (m.bytes.total > most)
    return `${engine} read ${m.bytes.total} bytes for ${m.requests} answers of ${fixed.answerBytes} bytes each: the server sent bytes no answer counted (a second answer, or a flood), and these counts could not be the server's; run it with --engine wire, which fails such answers by name`;
  return undefined;
}

/**
 * The answer every request of a scenario gets, where its size is fixed: one request (no workload) whose body is
 * exact, not HEAD, over plain HTTP/1.1, verified framed by one Content-Length.
 */
export function fixedAnswer(
  scenario: Pick<Scenario, 'request' | 'expect' | 'workload'>,
  verified: HttpAnswer | undefined,
  protocol: Protocol,
): FixedAnswer | undefined {
  const body = scenario.expect.body;
  if (!verified || scenario.workload || body.kind !== 'exact' || scenario.request.method === 'HEAD') return undefined;
  // over TLS an engine may count the handshakes' bytes too (k6 does), a few KB a connection
  if (protocol !== 'http1' || verified.headers['transfer-encoding'] !== undefined) return undefined;
  if (verified.headers['content-length'] === undefined) return undefined;
  return { bodyBytes: body.length, answerBytes: verified.headerBytes + verified.body.length };
}
