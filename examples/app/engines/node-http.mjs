// A load engine of the app's own, in one file: a closed loop on Node's http module, `-c` keep-alive
// connections each sending its next request when the last one answered. bench loads it by path
// (`--engine ./engines/node-http.mjs`, or a config's `engines` list) and reports it like its own.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

function summarize(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, v) => sum + v, 0) / (sorted.length || 1);
  const stdev = Math.sqrt(sorted.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (sorted.length || 1));
  const at = (p) => percentile(sorted, p);
  return {
    mean,
    stdev,
    min: sorted[0] ?? 0,
    ...{ p50: at(50), p66: at(66), p75: at(75), p80: at(80), p90: at(90), p95: at(95), p98: at(98), p99: at(99), p999: at(99.9) },
    max: sorted.at(-1) ?? 0,
  };
}

export default {
  name: 'node-http',
  description: "a closed loop on Node's http module (the example app's own engine)",
  available: async () => ({ ok: true, version: process.versions.node }),
  // Closed loop only, and it checks bodies by length only.
  supports: (shape, _request, expect) =>
    shape.rate !== undefined
      ? { ok: false, reason: 'no arrival rate: it is a closed loop' }
      : expect.kind === 'matches' || expect.kind === 'json'
        ? { ok: false, reason: 'it checks body lengths only' }
        : { ok: true },
  async run(plan) {
    const { shape, request } = plan;
    const agent = new http.Agent({ keepAlive: shape.keepAlive, maxSockets: shape.connections });
    const latencies = [];
    const statusCodes = {};
    const failures = { connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 };
    const errorSamples = new Set();
    let non2xx = 0;
    let bodyBytes = 0;
    let sent = 0;
    const started = performance.now();
    const deadline = shape.durationSeconds === undefined ? Infinity : started + shape.durationSeconds * 1000;
    const more = () => !plan.signal?.aborted && performance.now() < deadline && (shape.requests === undefined || sent < shape.requests);

    const once = () =>
      new Promise((resolve) => {
        const t0 = performance.now();
        const req = http.request(
          plan.url,
          { method: request.method, headers: request.headers, agent, timeout: shape.timeoutSeconds * 1000 },
          (res) => {
            let length = 0;
            res.on('data', (chunk) => (length += chunk.length));
            res.on('end', () => {
              latencies.push(performance.now() - t0);
              statusCodes[res.statusCode] = (statusCodes[res.statusCode] ?? 0) + 1;
              bodyBytes += length;
              if (res.statusCode < 200 || res.statusCode > 299) non2xx += 1;
              else if (plan.expect.length !== undefined && length !== plan.expect.length) failures.length += 1;
              resolve();
            });
          },
        );
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', (error) => {
          if (error.message === 'timeout') failures.timeouts += 1;
          failures[error.code === 'ECONNREFUSED' ? 'connect' : 'exceptions'] += 1;
          errorSamples.add(error.message);
          resolve();
        });
        req.end(request.body);
      });

    const connection = async () => {
      while (more()) {
        sent += 1;
        await once();
      }
    };
    await Promise.all(Array.from({ length: shape.connections }, connection));
    agent.destroy();
    const durationSeconds = (performance.now() - started) / 1000;
    return {
      durationSeconds,
      requests: latencies.length,
      latency: summarize(latencies),
      failures,
      non2xx,
      statusCodes,
      bytes: { total: bodyBytes, body: bodyBytes },
      errorSamples: [...errorSamples].slice(0, 5),
    };
  },
};
