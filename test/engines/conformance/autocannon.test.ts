import { runConformance } from '../../support/conformance-run.js';

// what autocannon makes of each conformance case, recorded for docs/engines.md's table (BENCH_CONFORMANCE_DIR)
runConformance({ engine: 'autocannon', label: 'autocannon' });
