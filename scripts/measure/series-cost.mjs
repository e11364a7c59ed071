// What collecting the per-second series adds to each answer an in-process engine records: the same
// work (an hrtime reading and the run's histogram) with and without SeriesRecorder.response, in CPU
// nanoseconds per answer. Run after `npm run build`: node scripts/measure/series-cost.mjs
import { createLatencyHistogram, SeriesRecorder } from '@bench/core';

const ANSWERS = 2_000_000;

function nanosecondsPerAnswer(withSeries) {
  const histogram = createLatencyHistogram();
  const series = new SeriesRecorder(process.hrtime.bigint(), { live: true });
  const before = process.cpuUsage();
  for (let i = 0; i < ANSWERS; i++) {
    const at = process.hrtime.bigint();
    const us = 500 + (i % 5000);
    histogram.recordValue(us);
    if (withSeries) series.response(us, true, at);
  }
  const used = process.cpuUsage(before);
  series.finish(process.hrtime.bigint());
  histogram.destroy();
  return ((used.user + used.system) * 1000) / ANSWERS;
}

for (let round = 1; round <= 5; round++) {
  const without = nanosecondsPerAnswer(false);
  const withSeries = nanosecondsPerAnswer(true);
  console.log(
    `round ${round}: ${without.toFixed(0)} ns without the series, ${withSeries.toFixed(0)} ns with: +${(withSeries - without).toFixed(0)} ns per answer`,
  );
}
