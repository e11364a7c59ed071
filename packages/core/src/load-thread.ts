// What the engines' load threads need of core, and nothing that loads zod or the schemas: a thread starts in a fresh
// isolate, and importing all of @bench/core there cost 0.12-0.14 s more CPU at each run's thread start (architecture.md).
// A module here is the same module as in @bench/core (the bundle shares it), so the main thread may import it either way.
export { errors, messageOf } from './errors.js';
export { printable } from './printable.js';
export { bareHostname } from './resolve-host.js';
export { bodyBytesCheck, bodyTextCheck } from './expectation.js';
export { BoundedBody, bodyKeepLimit, overLimitProblem, DEFAULT_MAX_CHECKED_BODY } from './measure/bounded-body.js';
export { packageFile } from './package-file.js';
export { createLatencyHistogram, encodeLatencyHistogram, recycleLatencyHistogram, summarizeLatency } from './measure/latency.js';
export { LatencyCounter } from './measure/latency-counter.js';
export { classifyError, emptyFailures } from './measure/failures.js';
export { SeriesRecorder } from './measure/series.js';
export { watchGeneratorHealth } from './measure/generator-health.js';
export { ConnectionTimer, timedPhase } from './measure/connection-costs.js';
export { CompiledWorkload, threadValueSource } from './workload/flow-cursor.js';
