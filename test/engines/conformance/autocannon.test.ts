import { runConformance } from '../../support/conformance-run.js';

// what autocannon makes of each conformance case, recorded for docs/engines.md's table (BENCH_CONFORMANCE_DIR)
// (a broken case's requests time out after 1 s and are sent again: it is stopped after 1.2 s, its verdicts the same as
// after 5 s, on 2026-11-29)
runConformance({ engine: 'autocannon', label: 'autocannon', stopAfterMs: 1200 });
