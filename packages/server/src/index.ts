export { createServer, type TestrunServer } from './create-server.js';
export type { FaultAction, FaultHook, FaultRequest, FaultRoute } from './faults.js';
export type { ResultInput, StoredResult, StoredRun } from './model.js';
export { DEFAULT_API_KEY, DEFAULT_STATUSES, type ServerOptions } from './options.js';
export type { RequestRecord } from './request-log.js';
export type { Store } from './store.js';
export type { RunSummary } from './summary.js';
