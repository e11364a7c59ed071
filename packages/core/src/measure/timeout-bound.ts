// A closed loop of c connections against a stack that answers R requests a second makes each request wait
// c / R seconds (Little's law). When that is longer than --timeout, the requests time out instead of being
// answered, and the result looks like a dead stack: perl-cgi at -c 3000 answered 0 requests in 30 s (8,034
// timeouts) while its 256 Apache workers each forked perl, 55 ms of CPU a request measured at -c 2 here,
// so 256 of them sharing 2 cores took about 7 s each before any wait in the listen backlog.

export interface TimeoutInput {
  readonly concurrency: number;
  readonly durationSeconds: number;
  readonly requests: number;
  readonly timeouts: number;
  readonly timeoutSeconds: number;
  readonly serverCpuPercent?: number | undefined;
  /** The stack's own limit on requests in progress, when it reports one (Apache's MaxRequestWorkers). */
  readonly maxRequestWorkers?: number | undefined;
}

/** Requests that timed out must be at least this share of all attempts for the note. */
export const TIMEOUT_SHARE = 0.1;

const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });

/** One line saying why a cell's requests timed out, when most of them did: the queue a closed loop builds is longer than --timeout. */
export function explainTimeouts(input: TimeoutInput): string | undefined {
  const attempts = input.requests + input.timeouts;
  if (input.timeouts === 0 || input.timeouts < TIMEOUT_SHARE * attempts) return undefined;
  const rate = input.durationSeconds > 0 ? input.requests / input.durationSeconds : 0;
  const cpu = input.serverCpuPercent !== undefined ? `, the server at ${fmt(input.serverCpuPercent)}% of a core` : '';
  const workers =
    input.maxRequestWorkers !== undefined && input.concurrency > input.maxRequestWorkers
      ? `; ${fmt(input.maxRequestWorkers)} workers serve at once (MaxRequestWorkers), the other connections wait in the listen backlog or retry their connect`
      : '';
  const head = `${fmt(input.timeouts)} of ${fmt(attempts)} requests timed out (--timeout ${fmt(input.timeoutSeconds, 1)} s)`;
  if (input.requests === 0)
    return `${head} and none was answered in time${cpu}: the stack was ${input.serverCpuPercent !== undefined && input.serverCpuPercent >= 25 ? 'busy, not dead: ' : ''}every request waited longer than the timeout behind the other ${fmt(input.concurrency - 1)} connections${workers}`;
  const wait = input.concurrency / rate;
  if (wait <= input.timeoutSeconds) return undefined;
  return `${head}: at the ${fmt(rate, 1)} rps it answered, ${fmt(input.concurrency)} connections make each request wait about ${fmt(wait, 1)} s (connections / rps), longer than the timeout${cpu}${workers}`;
}
