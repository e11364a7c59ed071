import { errors } from '@bench/core';
import { setTimeout as sleep } from 'node:timers/promises';
/** k6's REST API (--address), through which bench releases paused instances together and reads progress. */
export class K6Api {
  constructor(private readonly address: string) {}

  private async call(path: string, init?: RequestInit): Promise<unknown> {
    const res = await fetch(`http://${this.address}${path}`, { ...init, signal: AbortSignal.timeout(2000) });
    if (!res.ok) throw errors.generatorFailed(`k6 API ${path}: HTTP ${res.status}`);
    return res.json();
  }

  /** Resolves once the instance has initialised and answers, paused. */
  async ready(deadlineMs: number, stillRunning: () => boolean): Promise<void> {
    const until = Date.now() + deadlineMs;
    for (;;) {
      try {
        await this.call('/v1/status');
        return;
      } catch (error) {
        if (!stillRunning()) throw errors.generatorFailed('k6 exited before it was ready');
        if (Date.now() > until)
          throw errors.generatorFailed(`k6 did not answer on ${this.address} within ${deadlineMs / 1000} s: ${(error as Error).message}`);
        await sleep(50);
      }
    }
  }

  async resume(): Promise<void> {
    await this.call('/v1/status', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { type: 'status', id: 'default', attributes: { paused: false } } }),
    });
  }

  /** Requests made so far (0 when the instance cannot say). */
  async requests(): Promise<number> {
    try {
      const body = (await this.call('/v1/metrics/http_reqs')) as { data?: { attributes?: { sample?: { count?: number } } } };
      return body.data?.attributes?.sample?.count ?? 0;
    } catch {
      return 0;
    }
  }
}
