import { runConformance } from '../../support/conformance-run.js';

// what h2load makes of each conformance case, recorded for docs/engines.md's table (BENCH_CONFORMANCE_DIR)
// (a case it never ends on its own is stopped after 2 s: its verdicts were the same as after 5 s, on 2026-11-29)
runConformance({ engine: 'h2load', label: 'h2load', stopAfterMs: 2000 });
