export { compare, parsePercent, cellKey, comparableMetrics, DEFAULT_METRICS } from './compare.js';
export { comparePaired, comparePairedMetric, pairRounds, parseTargetPair, type PairedRounds, type TargetPair } from './paired-compare.js';
export { noiseFloor, type NoiseFloor } from './noise-floor.js';
export { assessRounds, fewestRounds, type RoundAssessment, type StopReason } from './round-decision.js';
export { evaluateThresholds, thresholdFields, thresholdsSchema, type ThresholdField, type ThresholdsSpec } from './thresholds.js';
