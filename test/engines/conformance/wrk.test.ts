import { runConformance } from '../../support/conformance-run.js';

// what wrk makes of each conformance case; it counts to -n in its script's response(), which a broken server never calls: its shortest run instead
runConformance({ engine: 'wrk', label: 'wrk', shape: { requests: undefined, durationSeconds: 1 } });
