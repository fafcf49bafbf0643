export { createServer, type TestrunServer } from './create-server.js';
export type { FaultAction, FaultHook, FaultRequest } from './faults.js';
export type { ResultsFilter, RunsFilter } from './ledger/filters.js';
export type { ImportOutcome } from './ledger/import-data-file.js';
export type { Page } from './ledger/page-reads.js';
export type { SqlStore } from './ledger/sql-store.js';
export type {
  ResultInput,
  RunEnd,
  RunEndStatus,
  RunWithCounts,
  Store,
  StoredResult,
  StoredRun,
} from './ledger/store.js';
export {
  DEFAULT_API_KEY,
  DEFAULT_STATUSES,
  type HttpsOptions,
  isProxyAddress,
  type ServerOptions,
} from './options.js';
export { defaultPageAccess, isLoopbackHost, type PageAccess } from './pages/access.js';
export type { RouteName } from './paths.js';
export type { RequestRecord } from './request-log.js';
