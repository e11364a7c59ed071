import { runConformance } from '../../support/conformance-run.js';

// what wrk makes of each conformance case; it counts to -n in its script's response(), which a broken server never
// calls: there it is stopped after 0.7 s (SIGINT, on which it reports what it counted; its verdicts were the same as
// after 1.5 s in every case, on 2026-11-29)
runConformance({ engine: 'wrk', label: 'wrk', stopAfterMs: 700 });
