export { createServer, type TestrunServer } from './create-server.js';
export type { FaultAction, FaultHook, FaultRequest } from './fault-hook.js';
export type { ResultInput, StoredResult, StoredRun } from './model.js';
export { DEFAULT_API_KEY, DEFAULT_STATUSES, type HttpsOptions, type ServerOptions } from './options.js';
export type { RequestRecord } from './request-log.js';
export type { RouteName } from './routes/paths.js';
export type { RunWithCounts } from './run-counts.js';
export type { Store } from './store.js';
