import { runConformance } from '../../support/conformance-run.js';

// what k6 makes of each conformance case, recorded for docs/engines.md's table (BENCH_CONFORMANCE_DIR)
runConformance({ engine: 'k6', label: 'k6' });
