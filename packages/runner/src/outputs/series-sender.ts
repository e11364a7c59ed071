import { messageOf, settledWithin } from '@bench/core';
import type { MetricSeries } from './live-metrics.js';

// At most this many samples wait to be sent; beyond it the oldest are dropped (and counted): a receiver that is
// down never makes bench hold a run's worth of points.
const MAX_WAITING_SAMPLES = 100_000;
const SERIES_PER_REQUEST = 500;
const ATTEMPTS = 3;
const REQUEST_TIMEOUT_MS = 5000;
// A receiver that refuses every request is named this many times, then counted in the tally
const REFUSALS_LOGGED = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const samplesIn = (series: readonly MetricSeries[]) => series.reduce((n, s) => n + s.samples.length, 0);

/** What reached the receiver, and what did not (with the last reason). */
export interface WriteTally {
  readonly sent: number;
  readonly notSent: number;
  readonly lastError?: string;
}

/** How one kind of receiver takes series: its request's headers and body, and what an accepted answer may refuse. */
export interface ReceiverFormat {
  readonly headers: Readonly<Record<string, string>>;
  encode(series: readonly MetricSeries[]): Uint8Array<ArrayBuffer>;
  /** Samples an accepted answer says were refused (OTLP's partial success), and why; undefined when none. */
  refusedIn?(answer: Uint8Array): { readonly samples: number; readonly message: string } | undefined;
}

/** A receiver's URL without its user info (fetch refuses one), and that user info as a Basic Authorization header. */
function splitCredentials(raw: string): { url: string; headers: Record<string, string> } {
  const url = new URL(raw);
  if (!url.username && !url.password) return { url: url.href, headers: {} };
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  return { url: url.href, headers: { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` } };
}

/**
 * Sends series to a receiver in the background: queued as they come, posted in order a request at a time with
 * retries, never awaited by the run; what could not be sent is counted, and a refusal is logged with the receiver's
 * own words. `headers` go with every request (--out-header: a token for a receiver behind one).
 */
export class SeriesSender {
  private readonly queue: MetricSeries[] = [];
  private readonly target: { url: string; headers: Record<string, string> };
  private sending: Promise<void> | undefined;
  private sent = 0;
  private notSent = 0;
  private refusals = 0;
  private lastError: string | undefined;
  private loaded: ReceiverFormat | undefined;

  constructor(
    url: string,
    /** The receiver's format, loaded at the first send (its encoder's libraries are loaded only by a run that sends). */
    private readonly loadFormat: () => Promise<ReceiverFormat>,
    headers: Readonly<Record<string, string>> = {},
    private readonly log: (line: string) => void = () => {},
  ) {
    const split = splitCredentials(url);
    this.target = { url: split.url, headers: { ...split.headers, ...headers } };
  }

  private async format(): Promise<ReceiverFormat> {
    return (this.loaded ??= await this.loadFormat());
  }

  /** Posts an empty request: whether a receiver answers there at all (and lets bench in), before any load. */
  async probe(): Promise<string | undefined> {
    try {
      const response = await this.post((await this.format()).encode([]));
      return response.ok ? undefined : `it answered ${response.status} ${response.statusText}${await bodyOf(response)}`;
    } catch (error) {
      return describe(error);
    }
  }

  push(series: readonly MetricSeries[]): void {
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
    await settledWithin(this.sending ?? Promise.resolve(), timeoutMs);
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
      const outcome = await this.send((await this.format()).encode(batch));
      const refused = typeof outcome === 'string' ? samples : Math.min(samples, outcome.refused);
      this.sent += samples - refused;
      this.notSent += refused;
      if (typeof outcome === 'string') this.refused(samples, outcome);
      else if (outcome.refused > 0) this.refused(outcome.refused, outcome.message);
    }
  }

  private refused(samples: number, problem: string): void {
    this.lastError = problem;
    if (++this.refusals <= REFUSALS_LOGGED)
      this.log(
        `${samples} samples not taken by ${this.target.url}: ${problem}${this.refusals === REFUSALS_LOGGED ? ' (further refusals are only counted)' : ''}`,
      );
  }

  /** Posts one request, again after a pause when the receiver is away or busy (5xx, 429); how it was taken, or why not. */
  private async send(body: Uint8Array<ArrayBuffer>): Promise<{ refused: number; message: string } | string> {
    let problem = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const response = await this.post(body);
        if (response.ok) {
          const partial = (await this.format()).refusedIn?.(new Uint8Array(await response.arrayBuffer()));
          return { refused: partial?.samples ?? 0, message: partial?.message ?? '' };
        }
        problem = `${response.status} ${response.statusText}${await bodyOf(response)}`;
        if (response.status < 500 && response.status !== 429) return problem;
      } catch (error) {
        problem = describe(error);
      }
      if (attempt < ATTEMPTS) await sleep(250 * 4 ** (attempt - 1));
    }
    return problem;
  }

  private async post(body: Uint8Array<ArrayBuffer>): Promise<Response> {
    return fetch(this.target.url, {
      method: 'POST',
      headers: { ...(await this.format()).headers, 'User-Agent': 'bench', ...this.target.headers },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }
}

// A refusal's reason in the receiver's own words (the first 300 characters)
async function bodyOf(response: Response): Promise<string> {
  // an OTLP receiver answers a protobuf Status: its message, without the bytes around it
  // eslint-disable-next-line no-control-regex
  const text = (await response.text().catch(() => '')).replace(/[\u0000-\u001f\ufffd\s]+/g, ' ').trim();
  return text ? `: ${text.slice(0, 300)}` : '';
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? messageOf(error);
}
