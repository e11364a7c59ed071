import http from 'node:http';

/** How long a JVM is driven after start, before it is handed to the run. */
export interface WarmUpBudget {
  readonly requests: number;
  readonly seconds: number;
  readonly connections: number;
}

/**
 * 20,000 requests reach HotSpot's C2 threshold (Tier4CompileThreshold 15,000) for every method run
 * once per request; 10 s bounds the slow data scenarios (a connection per request) that get there later.
 * BENCH_JAVA_WARMUP=0 turns it off, to measure a cold JVM.
 */
export const JIT_WARM_UP: WarmUpBudget = { requests: 20_000, seconds: 10, connections: 4 };

export const jitWarmUpEnabled = (): boolean => process.env.BENCH_JAVA_WARMUP !== '0';

export interface WarmUpDone {
  readonly requests: number;
  readonly seconds: number;
}

/** Sends keep-alive GETs to `url` until the budget is spent or a request fails (the run's verification then says why). */
export async function warmUp(url: string, budget: WarmUpBudget): Promise<WarmUpDone> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: budget.connections });
  const started = Date.now();
  const deadline = started + budget.seconds * 1000;
  let sent = 0;
  let answered = 0;
  let failed = false;
  const one = () =>
    new Promise<boolean>((resolve) => {
      const request = http.get(url, { agent, timeout: 5000 }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode !== undefined && response.statusCode < 400));
        response.on('error', () => resolve(false));
      });
      request.on('timeout', () => request.destroy());
      request.on('error', () => resolve(false));
    });
  const connection = async () => {
    while (!failed && sent < budget.requests && Date.now() < deadline) {
      sent++;
      if (await one()) answered++;
      else failed = true;
    }
  };
  try {
    await Promise.all(Array.from({ length: budget.connections }, connection));
  } finally {
    agent.destroy();
  }
  return { requests: answered, seconds: Math.round((Date.now() - started) / 100) / 10 };
}
