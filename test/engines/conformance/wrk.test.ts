import { runConformance } from '../../support/conformance-run.js';

// what wrk makes of each conformance case; it counts to -n in its script's response(), which a broken server never
// calls: there it is stopped after 1.5 s (SIGINT, on which it reports what it counted)
runConformance({ engine: 'wrk', label: 'wrk', stopAfterMs: 1500 });
