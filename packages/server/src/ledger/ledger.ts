import { DataFile } from './data-file.js';
import { MemoryStore, type ResultInput, type RunEnd, type StoredRun } from './store.js';

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
  /** Absent in data files written before runs had states. */
  receivedAt?: string;
}

/** `PATCH /api/v1/runs/{id}`: the run ended. */
export interface RunEnded {
  type: 'end';
  runId: string;
  end: RunEnd;
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

export type DataRecord = RunCreated | ResultsAccepted | RunEnded | IdempotentResponse;

const recordTypes = new Set(['run', 'results', 'end', 'idempotency']);

function isDataRecord(value: unknown): value is DataRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    recordTypes.has((value as { type?: unknown }).type as string)
  );
}

/**
 * The server's state and the only way to change it: commit() writes records to the
 * data file first and applies them in memory only once they are written, the same way
 * records read back from the file are applied on start.
 */
export class Ledger {
  readonly store = new MemoryStore();
  readonly idempotency = new IdempotencyRegistry();

  private constructor(private readonly file: DataFile<DataRecord> | undefined) {}

  static async open(dataFile: string | undefined): Promise<Ledger> {
    if (dataFile === undefined) return new Ledger(undefined);
    const { file, records } = await DataFile.open(dataFile, isDataRecord);
    const ledger = new Ledger(file);
    records.forEach((record, index) => {
      try {
        ledger.#apply(record);
      } catch (error) {
        throw new Error(`${dataFile}: record ${index + 1}: ${(error as Error).message}`);
      }
    });
    return ledger;
  }

  async commit(records: DataRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.file?.append(records);
    for (const record of records) this.#apply(record);
  }

  /** Resolves when every commit started so far is on disk. */
  async settled(): Promise<void> {
    await this.file?.settled();
  }

  #apply(record: DataRecord): void {
    if (record.type === 'run') this.store.addRun(record.run);
    else if (record.type === 'results')
      this.store.addResults(record.runId, record.results, record.receivedAt);
    else if (record.type === 'end') this.store.endRun(record.runId, record.end);
    else this.idempotency.apply(record);
  }
}

/** What an Idempotency-Key is scoped to: the same key on another method or path is another key. */
export interface IdempotencyScope {
  key: string;
  method: string;
  path: string;
}

/** The saved answers to idempotent writes, and the writes being handled right now. */
export class IdempotencyRegistry {
  readonly #saved = new Map<string, IdempotentResponse>();
  readonly #inFlight = new Set<string>();

  apply(record: IdempotentResponse): void {
    this.#saved.set(scopeId(record), record);
  }

  saved(scope: IdempotencyScope): IdempotentResponse | undefined {
    return this.#saved.get(scopeId(scope));
  }

  isInFlight(scope: IdempotencyScope): boolean {
    return this.#inFlight.has(scopeId(scope));
  }

  begin(scope: IdempotencyScope): void {
    this.#inFlight.add(scopeId(scope));
  }

  end(scope: IdempotencyScope): void {
    this.#inFlight.delete(scopeId(scope));
  }
}

function scopeId({ key, method, path }: IdempotencyScope): string {
  return JSON.stringify([method, path, key]);
}
