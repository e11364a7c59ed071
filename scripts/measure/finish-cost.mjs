// What reading out a run's latencies costs an in-process engine's thread at its end: 250,000 answers counted as the
// engines count them (a LatencyCounter over the run's 5-digit histogram), 3,000 connect and first-byte times, then the
// flush, the summary, the encoding and the two connection phases, four times (the first ones meet cold code). Run it
// after `npm run build`:
//   taskset -c 1 node scripts/measure/finish-cost.mjs
import { createLatencyHistogram, encodeLatencyHistogram, LatencyCounter, summarizeLatency, timedPhase } from '@bench/core';

const ms = (from) => (performance.now() - from).toFixed(1);
for (let round = 1; round <= 4; round++) {
  const cpu = process.cpuUsage();
  const counter = new LatencyCounter(createLatencyHistogram(), 20);
  const connects = createLatencyHistogram();
  const firstBytes = createLatencyHistogram();
  for (let i = 0; i < 3000; i++) {
    connects.recordValue(100 + ((i * 37) % 50_000));
    firstBytes.recordValue(1000 + ((i * 91) % 300_000));
  }
  // latencies spread over 20-220 ms, as at -c 3000
  for (let i = 0; i < 250_000; i++) counter.record(20_000 + ((i * 7919) % 200_000));
  let at = performance.now();
  const histogram = counter.flush();
  const flush = ms(at);
  at = performance.now();
  summarizeLatency(histogram);
  const summary = ms(at);
  at = performance.now();
  encodeLatencyHistogram(histogram);
  const encoding = ms(at);
  at = performance.now();
  timedPhase(connects);
  timedPhase(firstBytes);
  const phases = ms(at);
  const used = process.cpuUsage(cpu);
  console.log(
    `round ${round}: flush ${flush} ms, summary ${summary} ms, encoding ${encoding} ms, connection phases ${phases} ms; ` +
      `CPU for the whole round, recording included: ${((used.user + used.system) / 1000).toFixed(0)} ms`,
  );
}
