import { runConformance } from '../../support/conformance-run.js';

// what the open loop (undici) makes of each conformance case, at a rate for a short while (it runs no request count)
runConformance({ engine: 'open-loop', label: 'open-loop', shape: { requests: undefined, rate: 50, durationSeconds: 0.3 } });
