import { runConformance } from '../../support/conformance-run.js';

// what h2load makes of each conformance case, recorded for docs/engines.md's table (BENCH_CONFORMANCE_DIR)
runConformance({ engine: 'h2load', label: 'h2load' });
