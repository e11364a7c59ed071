import { runConformance } from '../../support/conformance-run.js';

// what the open loop (undici) makes of each conformance case, at a rate for a short while (it runs no request count),
// a request unanswered after 0.5 s timed out (its verdicts were the same as with 1 s, on 2026-11-29)
runConformance({
  engine: 'open-loop',
  label: 'open-loop',
  shape: { requests: undefined, rate: 50, durationSeconds: 0.3, timeoutSeconds: 0.5 },
});
