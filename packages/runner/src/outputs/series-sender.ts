import { encodeWriteRequest, type TimeSeries } from './write-request.js';

// At most this many samples wait to be sent; beyond it the oldest are dropped (and counted): a receiver that is
// down never makes bench hold a run's worth of points.
const MAX_WAITING_SAMPLES = 100_000;
const SERIES_PER_REQUEST = 500;
const ATTEMPTS = 3;
const REQUEST_TIMEOUT_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const samplesIn = (series: readonly TimeSeries[]) => series.reduce((n, s) => n + s.samples.length, 0);

/** What reached the receiver, and what did not (with the last reason). */
export interface WriteTally {
  readonly sent: number;
  readonly notSent: number;
  readonly lastError?: string;
}

/**
 * Sends time series to a Prometheus remote-write receiver in the background: queued as they come, posted in order
 * a request at a time with retries, never awaited by the run; what could not be sent is counted.
 */
export class RemoteWriter {
  private readonly queue: TimeSeries[] = [];
  private sending: Promise<void> | undefined;
  private sent = 0;
  private notSent = 0;
  private lastError: string | undefined;

  constructor(readonly url: string) {}

  /** Posts an empty request: whether a receiver answers there at all, before any load. */
  async probe(): Promise<string | undefined> {
    try {
      const response = await this.post(encodeWriteRequest([]));
      return response.ok ? undefined : `it answered ${response.status} ${response.statusText}`;
    } catch (error) {
      return describe(error);
    }
  }

  push(series: readonly TimeSeries[]): void {
    this.queue.push(...series);
    let waiting = samplesIn(this.queue);
    while (waiting > MAX_WAITING_SAMPLES && this.queue.length > 0) {
      const dropped = this.queue.shift()!;
      waiting -= dropped.samples.length;
      this.notSent += dropped.samples.length;
      this.lastError = 'too many samples waiting for a slow receiver';
    }
    this.sending ??= this.drain().finally(() => (this.sending = undefined));
  }

  /** Waits up to `timeoutMs` for what is queued to be sent; what is left counts as not sent. */
  async close(timeoutMs = 5000): Promise<WriteTally> {
    await Promise.race([this.sending, sleep(timeoutMs)]);
    const left = samplesIn(this.queue.splice(0));
    if (left > 0) {
      this.notSent += left;
      this.lastError ??= 'the receiver did not take them in time';
    }
    return { sent: this.sent, notSent: this.notSent, ...(this.lastError ? { lastError: this.lastError } : {}) };
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, SERIES_PER_REQUEST);
      const samples = samplesIn(batch);
      const problem = await this.send(encodeWriteRequest(batch));
      if (problem === undefined) this.sent += samples;
      else {
        this.notSent += samples;
        this.lastError = problem;
      }
    }
  }

  /** Posts one request, again after a pause when the receiver is away or busy (5xx, 429); undefined once it took it. */
  private async send(body: Uint8Array<ArrayBuffer>): Promise<string | undefined> {
    let problem = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const response = await this.post(body);
        if (response.ok) return undefined;
        problem = `${response.status} ${response.statusText}: ${(await response.text()).trim().slice(0, 200)}`;
        if (response.status < 500 && response.status !== 429) return problem;
      } catch (error) {
        problem = describe(error);
      }
      if (attempt < ATTEMPTS) await sleep(250 * 4 ** (attempt - 1));
    }
    return problem;
  }

  private post(body: Uint8Array<ArrayBuffer>): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: {
        'Content-Encoding': 'snappy',
        'Content-Type': 'application/x-protobuf',
        'X-Prometheus-Remote-Write-Version': '0.1.0',
        'User-Agent': 'bench',
      },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
