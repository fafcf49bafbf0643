import type { ResultInput, StoredRun } from './model.js';

// Every change to the server's state is one of these records. The same records are
// appended to the data file and applied in memory, so a restart rebuilds exactly the
// state that was acknowledged.

export interface RunCreated {
  type: 'run';
  run: StoredRun;
}

export interface ResultsAccepted {
  type: 'results';
  runId: string;
  results: ResultInput[];
}

export interface SavedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface IdempotentResponse {
  type: 'idempotency';
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  response: SavedResponse;
}

export type DataRecord = RunCreated | ResultsAccepted | IdempotentResponse;

const recordTypes = new Set(['run', 'results', 'idempotency']);

export function isDataRecord(value: unknown): value is DataRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    recordTypes.has((value as { type?: unknown }).type as string)
  );
}
