import {
  messageOf,
  answerProblems,
  CompiledWorkload,
  errors,
  databaseOf,
  protocolRequest,
  sendsUnaskedAnswers,
  TFB_BURST,
  type HttpAnswer,
  type ProtocolAnswer,
  type Scenario,
  type Transport,
  type Workload,
} from '@bench/core';
import { verifyTfb, type TfbContext } from './tfb-verify.js';
import { databaseWindows } from './database-windows.js';

export interface Verification {
  readonly ok: boolean;
  readonly problems: readonly string[];
  /** What is not wrong enough to fail (TechEmpower's warnings), printed beside the result. */
  readonly warnings?: readonly string[];
  readonly answer?: HttpAnswer;
}

const isHttp2 = (transport: Transport | undefined) => transport?.protocol === 'h2' || transport?.protocol === 'h2c';

/** What TLS negotiated is what the protocol asked for: h2 by ALPN for h2, HTTP/1.1 for https. */
function protocolProblems(transport: Transport | undefined, answer: ProtocolAnswer): string[] {
  if (transport?.protocol === 'h2' && answer.alpn !== 'h2') return [`ALPN negotiated ${answer.alpn ?? 'nothing'}, not h2`];
  if (transport?.protocol === 'https' && answer.alpn !== undefined && answer.alpn !== 'http/1.1')
    return [`ALPN negotiated ${answer.alpn}, not http/1.1`];
  return [];
}

/**
 * One real request to a running target, checked (over the run's protocol, the certificate against the run's CA); a
 * TechEmpower scenario by TFB's rules (tfb-verify.ts). Never trust a stack's numbers before this passes.
 */
export async function verifyTarget(baseUrl: string, scenario: Scenario, transport?: Transport, tfb?: TfbContext): Promise<Verification> {
  if (scenario.workload) return verifyWorkload(baseUrl, scenario.name, scenario.workload, transport);
  if (scenario.tfb) {
    const found = await verifyTfb(baseUrl, scenario, scenario.tfb, transport, tfb ?? { burst: TFB_BURST });
    return {
      ok: found.failures.length === 0,
      problems: found.failures,
      warnings: found.warnings,
      ...(found.answer ? { answer: found.answer } : {}),
    };
  }
  let answer: ProtocolAnswer;
  try {
    // a request that reads the run's database waits while a TechEmpower check counts its queries
    const ask = () => protocolRequest(baseUrl + scenario.request.path, scenario.request, transport, 10_000);
    answer = await (databaseOf(scenario) ? databaseWindows.shared(ask) : ask());
  } catch (error) {
    return { ok: false, problems: [`request failed: ${messageOf(error)}`] };
  }
  const problems = [...protocolProblems(transport, answer), ...answerProblems(scenario.expect, answer, isHttp2(transport))];
  if (problems.length > 0) return { ok: false, problems, answer };
  return { ok: true, problems, answer: await withUnaskedAnswers(baseUrl, scenario, transport, answer) };
}

/**
 * The answer with the habit 'answers to no request' when the server sends them: the same request three times more on
 * one kept-alive connection, each listened to a little past its answer (HTTP/1.1 in the clear, where engines frame the
 * bytes).
 */
async function withUnaskedAnswers(baseUrl: string, scenario: Scenario, transport: Transport | undefined, answer: HttpAnswer) {
  if ((transport?.protocol ?? 'http1') !== 'http1' || !baseUrl.startsWith('http:')) return answer;
  const probe = () => sendsUnaskedAnswers(baseUrl + scenario.request.path, scenario.request, 10_000);
  const unasked = await (databaseOf(scenario) ? databaseWindows.shared(probe) : probe());
  return unasked ? { ...answer, habits: [...(answer.habits ?? []), 'answers to no request' as const] } : answer;
}

/**
 * A workload run once as one connection would, before load: its once steps, then every step of every mix member, each
 * answer checked and its captures taken. A capture that finds nothing is bad input (the spec names a value the app
 * does not send): one line, exit 2.
 */
async function verifyWorkload(baseUrl: string, scenario: string, workload: Workload, transport?: Transport): Promise<Verification> {
  // verification's counter values are 0: the load's start at 1, so no value is sent twice
  const compiled = new CompiledWorkload(workload, { counter: () => 0, random: Math.random });
  const cursor = compiled.connection();
  const byName = new Map(compiled.steps.map((step) => [step.name, step]));
  const order = [...workload.once, ...workload.cycle.flatMap((slot) => slot.flatMap((member) => member.steps))];
  let last: HttpAnswer | undefined;
  for (const { name } of order) {
    const step = byName.get(name)!;
    const request = cursor.render(step);
    // a value captured before that would break the request (a header's CR LF): the request is not sent
    if ('refused' in request) return { ok: false, problems: [request.refused], ...(last ? { answer: last } : {}) };
    let answer: ProtocolAnswer;
    try {
      answer = await protocolRequest(
        baseUrl + request.path,
        { method: request.method, headers: request.headers, ...(request.body !== undefined ? { body: Buffer.from(request.body) } : {}) },
        transport,
        10_000,
      );
    } catch (error) {
      return { ok: false, problems: [`step ${name}: request failed: ${messageOf(error)}`] };
    }
    const headerProblems = [
      ...protocolProblems(transport, answer),
      ...answerProblems({ ...step.expect, body: { kind: 'any' } }, answer, isHttp2(transport)),
    ].map((p) => `step ${name}: ${p}`);
    if (headerProblems.length > 0) return { ok: false, problems: headerProblems, answer };
    const problem = cursor.answered(step, answer.status, answer.headers, answer.body.toString('utf8'), answer.body.length);
    if (problem?.kind === 'capture') throw errors.usage(`scenario "${scenario}": ${problem.message}; fix the capture or the step`);
    if (problem) return { ok: false, problems: [problem.message], answer };
    last = answer;
  }
  return { ok: true, problems: [], ...(last ? { answer: last } : {}) };
}
