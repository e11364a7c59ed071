import autocannon from 'autocannon';
import type { LoadPlan } from '@bench/core';
import {
  bodyBytesCheck,
  bodyKeepLimit,
  DEFAULT_MAX_CHECKED_BODY,
  classifyError,
  CompiledWorkload,
  ConnectionTimer,
  messageOf,
  threadValueSource,
  watchGeneratorHealth,
} from '@bench/core/load-thread';
import { installBodyCheck, installConnectionPolicy, installConnectionTimer } from './client-setup.js';
import { installWorkload, type StepAnswer, type WorkloadAutocannonClient } from './workload-client.js';
import { StepTallies } from '../threads/step-tallies.js';
import { verifyServers } from './verify-tls.js';
import type { EventEmitter } from 'node:events';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import { RunTally } from '../threads/run-tally.js';

// autocannon's instance is an EventEmitter that is also a promise; its typings only say the latter.
// stop() is missing on an instance whose options autocannon refused
type AutocannonInstance = EventEmitter & PromiseLike<unknown> & { stop?(): void };

/** One autocannon run against one URL, in this thread; every response is timed into a microsecond histogram. */
export async function runAutocannon(
  plan: LoadPlan,
  slot: Pick<ThreadSlot, 'rawSamples'> & Partial<Pick<ThreadSlot, 'index' | 'count'>> = {},
): Promise<ThreadMeasurement> {
  const { shape, request } = plan;
  if (plan.url.startsWith('https:')) verifyServers(plan.caFile);
  const tally = new RunTally(undefined, slot.rawSamples);
  const check = bodyBytesCheck(plan.expect);
  const maxCheckedBody = plan.maxCheckedBody ?? DEFAULT_MAX_CHECKED_BODY;
  const thread = { index: slot.index ?? 0, count: slot.count ?? 1 };
  const workload = plan.workload ? new CompiledWorkload(plan.workload, threadValueSource(thread.index, thread.count), thread) : undefined;
  const steps = workload ? new StepTallies(workload.steps) : undefined;
  const answers = new WeakMap<object, { lastAnswer(): StepAnswer | undefined }>();
  const connections = new ConnectionTimer(plan.url.startsWith('https:'), tally.series);

  const instance = autocannon({
    url: plan.url,
    method: request.method,
    headers: { ...request.headers },
    ...(request.body ? { body: request.body } : {}),
    connections: shape.connections,
    ...(shape.requests !== undefined ? { amount: shape.requests } : { duration: shape.durationSeconds ?? 10 }),
    timeout: shape.timeoutSeconds,
    pipelining: 1,
    sampleInt: 100,
    // bench reports its own numbers; autocannon's aggregate (whole-millisecond histograms) is not needed
    skipAggregateResult: true,
    setupClient: (client: unknown) => {
      const c = client as Parameters<typeof installBodyCheck>[0];
      installConnectionTimer(c, connections);
      if (workload) {
        // each step checks its own answers; the workload's cursor wraps the connection policy (think time before a reconnect)
        installConnectionPolicy(c, shape.keepAlive, () => tally.keptAlive++, shape.requestsPerConnection);
        answers.set(
          c,
          installWorkload(c as unknown as WorkloadAutocannonClient, workload, {
            host: new URL(plan.url).host,
            keepAlive: shape.keepAlive,
            maxCheckedBody,
            // a request a captured value would break is not sent: a failure of its step, with its message
            onRefused: (step, message) => {
              tally.error('exceptions', message);
              steps!.error(step.index, 'exceptions', message);
            },
          }),
        );
        return;
      }
      installBodyCheck(c, check, bodyKeepLimit(plan.expect, maxCheckedBody), (length, matches) => {
        tally.bodyBytes += length;
        if (!matches) tally.wrongBody();
      });
      installConnectionPolicy(c, shape.keepAlive, () => tally.keptAlive++, shape.requestsPerConnection);
    },
  } as autocannon.Options) as unknown as AutocannonInstance;

  let started = process.hrtime.bigint();
  let lastResponse = started;
  instance.on('start', () => {
    started = process.hrtime.bigint();
    lastResponse = started;
    tally.series.restart(started);
    steps?.restart(started);
  });
  instance.on('response', (client: object, statusCode: number, resBytes: number, responseTime: number) => {
    lastResponse = process.hrtime.bigint();
    // autocannon times in milliseconds (a float): bench's histograms count whole microseconds
    const latencyUs = Math.max(1, Math.round(responseTime * 1000));
    tally.answer(statusCode, latencyUs, resBytes, lastResponse);
    const answer = steps && answers.get(client)?.lastAnswer();
    if (answer) {
      tally.bodyBytes += answer.bodyBytes;
      steps.answer(answer.step.index, statusCode, latencyUs, resBytes, lastResponse);
      if (answer.problem !== undefined) {
        tally.wrongBody(lastResponse);
        tally.sample(answer.problem);
        steps.wrong(answer.step.index, answer.problem, lastResponse);
      }
    }
  });
  instance.on('reqError', (error: unknown) => {
    tally.error(classifyError(error), messageOf(error));
  });
  const progress = setInterval(() => plan.onProgress?.(tally.progress(started)), 1000);
  const abort = () => instance.stop?.();
  plan.signal?.addEventListener('abort', abort, { once: true });
  if (plan.signal?.aborted) abort();
  const health = watchGeneratorHealth();

  try {
    await instance;
  } finally {
    clearInterval(progress);
    plan.signal?.removeEventListener('abort', abort);
  }
  const cpuPerSecond = health.cpuPerSecond();
  const generator = health.stop();
  const finished = process.hrtime.bigint();
  // With -n the run ends at the last answer (as ab measures); with -d at the end of the period.
  const end = shape.requests !== undefined ? lastResponse : finished;
  return {
    durationSeconds: Math.max(Number(end - started) / 1e9, 1e-6),
    ...tally.finish(end, cpuPerSecond),
    ...generator,
    startedAtNs: started,
    ...(steps ? { steps: steps.finish(end) } : {}),
    connects: connections.finish(),
  };
}
