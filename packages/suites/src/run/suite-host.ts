import type {
  CellResult,
  DatabaseChoice,
  HttpAnswer,
  LoadEngine,
  Reporter,
  RunDocument,
  RunningTarget,
  Scenario,
  TargetPlugin,
} from '@bench/core';
import type { Suite } from '../suite-registry.js';

/** The options of bench run a suite reads and sets (the runner's own options are these and more). */
export interface SuiteOptions {
  readonly concurrency: readonly number[];
  readonly engine?: string;
  readonly durationSeconds?: number;
  readonly pipelining?: number;
  readonly tfbBurst?: number;
}

/** A layer of bench run's options, as a config's `defaults` give them (checked by the host). */
export type OptionLayer = Readonly<Record<string, unknown>>;

/** What a suite tells as it runs: the runner's events of the same names. */
export type SuiteEvent =
  | { readonly type: 'step'; readonly text: string }
  | { readonly type: 'target-starting'; readonly scenario: string; readonly target: string }
  | { readonly type: 'target-verifying'; readonly scenario: string; readonly target: string }
  | { readonly type: 'cell-end'; readonly result: CellResult };

/** A stack's verification by bench's (and TechEmpower's) rules. */
export interface SuiteVerification {
  readonly ok: boolean;
  readonly problems: readonly string[];
  readonly warnings?: readonly string[];
  readonly answer?: HttpAnswer;
}

/** The services (databases, caches) the host starts for the scenarios of a run. */
export interface SuiteServices {
  prepare(scenarios: readonly Scenario[]): Promise<void>;
  stopAll(): Promise<void>;
}

/** What one cell of a suite is: the host makes it (with where the run is placed) and measures it. */
export interface SuiteCell<O extends SuiteOptions> {
  readonly scenario: Scenario;
  readonly target: string;
  readonly concurrency: number;
  readonly options: O;
  readonly running: RunningTarget | undefined;
  readonly engine: { readonly name: string; readonly version: string };
}

/**
 * The run loop the runner offers a suite (the suites package sequences, the runner measures): bench run's options,
 * its document, its whole runs of cells, and for TechEmpower's own sequence the pieces of a cell.
 */
export interface SuiteHost<O extends SuiteOptions> {
  readonly targets: readonly TargetPlugin[];
  readonly scenarios: readonly Scenario[];
  /** Where article 002's client programs are. */
  readonly httpsClientSources: string;
  /** --warmup-max's default: a scaled run waits a share of it for a stack to settle. */
  readonly warmupMaxDefault: number;
  /** bench run's options for these scenarios (and targets) from layers, the later over the earlier. */
  options(selection: { readonly scenarios: readonly string[]; readonly targets?: readonly string[] }, ...layers: OptionLayer[]): O;
  /** A layer of a suite's own checked against bench run's option table (suite.json is input too); `where` names it. */
  checkedLayer(layer: OptionLayer, where: string): OptionLayer;
  /** A run's document before its first cell. */
  document(command: string, options: O): RunDocument;
  /** On several hosts, each machine written into the document before the first cell; nothing on one machine. */
  place(doc: RunDocument): Promise<void>;
  /** A whole bench run of `options`, each result handed to `onResult` as it finishes. */
  runCells(options: O, onResult: (result: CellResult) => Promise<void>, command: string): Promise<void>;
  /** The engine a run of `options` takes for `scenarios` (refused here when it cannot drive them). */
  chooseEngine(options: O, scenarios: readonly Scenario[]): Promise<{ readonly engine: LoadEngine; readonly version: string }>;
  readonly services: SuiteServices;
  /** A stack for `scenarios` (all at once where the target serves several), sized for `maxConcurrency`. */
  startStack(target: TargetPlugin, scenarios: readonly Scenario[], maxConcurrency: number): Promise<RunningTarget>;
  /** The stack verified for `scenario`, TechEmpower's burst of `burst` requests where its rules ask for one. */
  verify(url: string, scenario: Scenario, burst: number | undefined): Promise<SuiteVerification>;
  /** Load that is not measured (a primer, a warm-up): `seconds` at `connections`. */
  drive(engine: LoadEngine, running: RunningTarget, scenario: Scenario, options: O, connections: number, seconds: number): Promise<void>;
  /** One cell measured, `position` its place among the run's cells. */
  measure(
    cell: SuiteCell<O>,
    engine: LoadEngine,
    answer: HttpAnswer | undefined,
    position: { index: number; total: number },
  ): Promise<CellResult>;
  /** A cell that could not be measured, and why. */
  failed(cell: SuiteCell<O>, error: string): CellResult;
  /** A result as the document keeps it (a server's bytes made printable). */
  printable(result: CellResult): CellResult;
  /** The suite's ratios in a finished document (the suite reporter's), kept for the runs after it. */
  ratios(suite: Suite, doc: RunDocument): Record<string, number[]>;
}

/** One `bench suite` run: the suite, its scale, and what to run and report. */
export interface SuiteRunRequest {
  readonly suite: Suite;
  /** 1 runs the article's own load shape; 0.1 a tenth of it. */
  readonly scale: number;
  /** Overrides the suite's repeats. */
  readonly repeat?: number;
  /** Only these of the suite's targets (its other rows stay unmeasured). */
  readonly targets?: readonly string[];
  readonly reporters: readonly Reporter[];
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: SuiteEvent) => void;
  readonly command?: string;
  /** The load engine in place of the suite's own (techempower: wrk, as TFB; --engine wire). */
  readonly engine?: string;
  /** The database TechEmpower's types read (--db): MariaDB when absent. */
  readonly db?: DatabaseChoice;
}
