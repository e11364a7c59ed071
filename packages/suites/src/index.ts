// bench's suites: each article's experiment as data (suite.json, published.json), how a suite's tables read a run,
// how --scale and the article's time shape a run, article 002's HTTPS clients, and article 000's stacks today.
export { loadSuites, findSuite, suitesDir, type Suite } from './suite-registry.js';
export {
  publishedArticleSchema,
  suiteDefinitionSchema,
  type PublishedArticle,
  type PublishedCell,
  type PublishedTable,
  type SuiteDefinition,
  type SuiteRun,
  type SuiteRunOptions,
  type SuiteTable,
  type TechempowerShape,
} from './suite-schema.js';
export {
  cellRepeats,
  measuredValue,
  publishedNumber,
  publishedValue,
  tableColumns,
  tableRows,
  type Measured,
  type TableColumn,
  type TableRow,
} from './suite-cells.js';
export { fieldValue, resultFields } from './fields.js';
export { scaleConcurrency, scaleOptions } from './scale.js';
export { articleSeconds, planRunShape, TIME_SHAPE_CAP_SECONDS, TIME_SHAPE_FLOOR_SECONDS, type RunShape } from './time-shape.js';
export { httpsClients, type HttpsClient, type HttpsClientName } from './https-clients/clients.js';
export { measureHttpsClients, type HttpsClientMeasurement } from './https-clients/measure-clients.js';
export { makeTlsMaterial, makeAuthority, type TlsMaterial } from '@bench/core';
export { startTlsServer, HTTPS_CLIENT_PAGE } from './https-clients/tls-server.js';
export { earlierRuns, recordRun, runRecordFile, RECORDED_RUNS, type EarlierRun } from './run-record.js';
export { article000Stacks, describeToday, type ArticleStack } from './article-stacks.js';
export { techempowerDatabase, techempowerEntry } from './techempower-entry.js';
export { runSuite, suiteRunLayers, SUITE_ROUNDS } from './run/run-suite.js';
export type {
  OptionLayer,
  SuiteCell,
  SuiteEvent,
  SuiteHost,
  SuiteOptions,
  SuiteRunRequest,
  SuiteServices,
  SuiteVerification,
} from './run/suite-host.js';
