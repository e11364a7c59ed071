import { messageOf, protocolRequest, type Transport } from '@bench/core';

/** What a burst did: how many requests failed (no answer, or not 200), and a sample of why. */
export interface BurstOutcome {
  readonly failed: number;
  readonly sample?: string;
}

/**
 * `requests` GETs of one URL, all at once, each on a connection of its own (as TFB's siege run: its highest
 * concurrency, one repetition). A stack that queues them answers them late, never wrongly: the timeout is long.
 */
export async function burst(url: string, requests: number, transport: Transport | undefined, timeoutMs = 60_000): Promise<BurstOutcome> {
  let failed = 0;
  let sample: string | undefined;
  await Promise.all(
    Array.from({ length: requests }, async () => {
      try {
        const answer = await protocolRequest(url, {}, transport, timeoutMs);
        if (answer.status === 200) return;
        failed++;
        sample ??= `HTTP ${answer.status}`;
      } catch (error) {
        failed++;
        sample ??= messageOf(error);
      }
    }),
  );
  return { failed, ...(sample !== undefined ? { sample } : {}) };
}
