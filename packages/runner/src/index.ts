// The programmatic API: what the CLI does, without the terminal. The CLI (cli/) is a thin layer over it.
// One entry point per use: run() from code with a config, runProject() for `bench run` (a loaded project and flags),
// runCells() with registries of your own, runSuite() for `bench suite`.
import { runCells } from './run/run-cells.js';
export { run, type RunInput } from './api.js';
export { compare } from '@bench/compare';
export { parseFailIf, type Comparison, type CellComparison, type MetricComparison, type Verdict } from '@bench/core';
export { renderComparisonMarkdown } from '@bench/reporters';
export { defineConfig, secret, type BenchConfig } from './config/define-config.js';
export { Redaction, REDACTED, SECRET_HEADERS, type SecretSources } from '@bench/core';
export { evaluateThresholds, thresholdFields, type ThresholdsSpec, type ThresholdField } from '@bench/compare';
export { runCells, newRunDocument, type RunContext, type RunEvent } from './run/run-cells.js';
export { defaultEngineName } from './engine-choice/choose-engine.js';
/** @deprecated The old name of runCells (bench's core: plan, run every cell, report, with the registries you give it). */
export const runBench = runCells;
export { runProject, type ProjectRunRequest } from './run/run-project.js';
export { loadProject, type Project, type ProjectSource } from './project/project.js';
export { builtinScenarios, builtinScenariosDir } from './project/builtin-scenarios.js';
export { runOptionDeclarations, resolveRunOptions, type RunOptions, type RunOptionInput } from './options/index.js';
export { makePlan, resolveScenarios, resolveTargets, type Plan } from './run/plan.js';
export { verifyTarget, type Verification } from './run/verify.js';
export { builtinEngines, findEngine } from '@bench/engines';
export { noServices, createServiceManager, serviceDefinitions, type ServiceManager, type CounterReading } from '@bench/services';
export { readResultsFile, replayDocument } from './reporters/results-file.js';
// The history of runs (bench history): read it, find its change points, append to it.
export {
  readHistory,
  parseHistory,
  appendHistory,
  historyEntriesOf,
  groupSeries,
  findHistoryChanges,
  HISTORY_SCHEMA_VERSION,
  historyEntrySchema,
  type History,
  type DamagedLine,
  type HistoryEntry,
  type HistoryMetric,
  type HistoryMetrics,
  type SeriesKey,
  type MachineFingerprint,
  type GitInfo,
  type HistoryPoint,
  type HistorySeries,
  type HistoryChange,
  type HistoryChangeOptions,
  type SeriesChanges,
} from '@bench/history';
export { detectChangePoints, type ChangePoint, type ChangePointOptions } from '@bench/core';
export { TOOL_VERSION } from './version.js';
export { loadSuites, findSuite, type Suite } from '@bench/suites';
export { runSuite } from './suites/run-suite.js';
// Article 002's client timing, and its parts (a TLS server with a certificate made at run time, the clients).
export {
  measureHttpsClients,
  httpsClients,
  makeTlsMaterial,
  makeAuthority,
  startTlsServer,
  HTTPS_CLIENT_PAGE,
  type HttpsClientMeasurement,
  type HttpsClient,
} from '@bench/suites';
export { commandTarget, urlTarget, type CommandTargetSpec, type UrlTargetSpec } from '@bench/targets';
// Helpers for target plugins: a process group that dies with the run, a free port, readiness by a real request.
export { spawnGroup, describeExit, choosePort, waitForHttp, makePrivateDir, removeDir, type GroupProcess } from '@bench/core';
// An engine's own option (merged into bench run's flags and the config's defaults), declared without zod.
export { positiveIntegerOption, maybe, always, type OptionDeclaration, type OptionTable } from '@bench/core';
// The plugin contracts, for typed target, reporter and engine plugins.
export type {
  TargetPlugin,
  RunningTarget,
  TargetStartOptions,
  Availability,
  Support,
  Reporter,
  ReporterFactory,
  ReporterContext,
  LoadEngine,
  LoadPlan,
  LoadMeasurement,
  Scenario,
  NodeScenarioContext,
  NodeScenarioModule,
  RunDocument,
  CellResult,
  ThresholdResult,
} from '@bench/core';
