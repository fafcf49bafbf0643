import {
  isUniqueViolation,
  type SqlDatabase,
  type SqlTransaction,
  type SqlValue,
} from '../database/sql-database.js';
import { type LiftInput, liftQuarantine, type QuarantineInput, setQuarantine } from './quarantines.js';
import { endOfRow, resultColumns, runRow, storedRun } from './rows.js';
import type { IdempotentResponse, ResultInput, RunEnd, StoredRun } from './store.js';
import {
  ADD_RESULTS_POSTGRES,
  ADVANCE_RUN_SQLITE,
  CREATE_RUN_POSTGRES,
  END_RUN,
  INSERT_RESPONSE,
  INSERT_RUN,
  insertResultRowsSql,
  NEXT_RUN_SEQ_POSTGRES,
  NEXT_RUN_SEQ_SQLITE,
  ROWS_PER_INSERT,
  runTagsSql,
  upsertCountsSql,
} from './write-sql.js';

/** 2^53 + 1: the first integer a double cannot hold. */
const FIRST_INTEGER_ID = 9_007_199_254_740_993n;

/** The writes of one transaction (`SqlStore.write`); its SQL text, by engine, is write-sql.ts. */
export class StoreWriter {
  constructor(
    readonly tx: SqlTransaction,
    private readonly dialect: SqlDatabase['dialect'],
  ) {}

  async run(id: string): Promise<StoredRun | undefined> {
    const row = await runRow(this.tx, id);
    return row ? storedRun(row) : undefined;
  }

  async endOf(runId: string): Promise<RunEnd | undefined> {
    const row = await runRow(this.tx, runId);
    return row ? endOfRow(row) : undefined;
  }

  /** Creates a run; its number comes from the database, so servers sharing one never collide. */
  async createRun(
    input: Omit<StoredRun, 'id'>,
    runIds: 'uuid' | 'integer',
    uuid: () => string,
  ): Promise<StoredRun> {
    if (this.dialect === 'postgres') {
      const rows = await this.tx.query<{ id: string }>(CREATE_RUN_POSTGRES, [
        runIds === 'uuid' ? uuid() : null,
        input.project,
        input.framework,
        JSON.stringify(input.tags),
        input.createdAt,
      ]);
      return { id: (rows[0] as { id: string }).id, ...input };
    }
    const seq = await this.nextRunSeq();
    const id = runIds === 'uuid' ? uuid() : String(FIRST_INTEGER_ID + BigInt(seq - 1));
    const run: StoredRun = { id, ...input };
    await this.insertRun(seq, run, run.createdAt);
    return run;
  }

  /** Inserts a run as given (the import of an older data file keeps its ids). */
  async insertRun(seq: number, run: StoredRun, lastReceivedAt: string): Promise<void> {
    await this.tx.query(INSERT_RUN, [
      seq,
      run.id,
      run.project,
      run.framework,
      JSON.stringify(run.tags),
      run.createdAt,
      lastReceivedAt,
    ]);
    const tags = [...new Set(run.tags)];
    if (tags.length > 0) await this.tx.query(runTagsSql(tags.length), [seq, ...tags]);
  }

  /** The next run number, for a run created on SQLite or imported. */
  async nextRunSeq(): Promise<number> {
    const rows = await this.tx.query<{ value: number | string }>(
      this.dialect === 'postgres' ? NEXT_RUN_SEQ_POSTGRES : NEXT_RUN_SEQ_SQLITE,
    );
    return Number(rows[0]?.value);
  }

  /**
   * Appends results to a run in arrival order and adds them to its counts; false for an
   * unknown run. `receivedAt` undefined (older data files) leaves the last-received time.
   */
  async addResults(
    runId: string,
    results: readonly ResultInput[],
    receivedAt: string | undefined,
  ): Promise<boolean> {
    let duration = 0;
    for (const result of results) duration += result.duration;
    if (this.dialect === 'postgres') {
      const rows = await this.tx.query(ADD_RESULTS_POSTGRES, [
        runId,
        results.length,
        duration,
        receivedAt ?? null,
        JSON.stringify(results.map(resultColumns)),
      ]);
      return rows.length > 0;
    }
    // Taking the positions and updating the counts is one statement.
    const rows = await this.tx.query<{ seq: number | string; total: number | string }>(ADVANCE_RUN_SQLITE, [
      runId,
      results.length,
      duration,
      receivedAt ?? null,
    ]);
    const row = rows[0];
    if (!row) return false;
    const seq = Number(row.seq);
    const first = Number(row.total) - results.length;
    await this.#insertResultRows(seq, first, results);

    // The counts, one row per status, in one statement.
    const byStatus = new Map<string, { count: number; firstPosition: number }>();
    results.forEach((result, index) => {
      const seen = byStatus.get(result.status);
      if (seen) seen.count += 1;
      else byStatus.set(result.status, { count: 1, firstPosition: first + index });
    });
    const params: SqlValue[] = [seq];
    for (const [status, { count, firstPosition }] of byStatus) params.push(status, count, firstPosition);
    await this.tx.query(upsertCountsSql(byStatus.size), params);
    return true;
  }

  async #insertResultRows(seq: number, first: number, results: readonly ResultInput[]): Promise<void> {
    for (let start = 0; start < results.length; start += ROWS_PER_INSERT) {
      const end = Math.min(start + ROWS_PER_INSERT, results.length);
      const params: SqlValue[] = [];
      for (let index = start; index < end; index++) {
        const result = results[index] as ResultInput;
        params.push(seq, first + index, ...resultColumns(result));
      }
      await this.tx.query(insertResultRowsSql(end - start), params);
    }
  }

  /** Records how the run ended; false for an unknown run. */
  async endRun(runId: string, end: RunEnd): Promise<boolean> {
    const rows = await this.tx.query<{ seq: number | string }>(END_RUN, [runId, end.status, end.endedAt]);
    return rows.length > 0;
  }

  /** Quarantines a test, or changes the quarantine in force (quarantines.ts). */
  quarantine(input: QuarantineInput) {
    return setQuarantine(this.tx, this.dialect, input);
  }

  /** Lifts a test's quarantine in force; undefined when it has none (quarantines.ts). */
  liftQuarantine(input: LiftInput) {
    return liftQuarantine(this.tx, this.dialect, input);
  }

  /**
   * Saves the first successful answer for an Idempotency-Key as the transaction's last
   * statement (on PostgreSQL its COMMIT goes with it): what a write request does. False when
   * one is already saved: another request with the key (on this server or another) committed
   * first; the caller throws, so that the write is rolled back (on PostgreSQL the failed
   * insert already did).
   */
  async saveResponseLast(record: IdempotentResponse, createdAt: string): Promise<boolean> {
    try {
      await this.tx.queryLast(INSERT_RESPONSE, responseValues(record, createdAt));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Saves an answer among other statements (an import); one already saved for the key is kept. */
  async saveResponse(record: IdempotentResponse, createdAt: string): Promise<void> {
    await this.tx.query(
      `${INSERT_RESPONSE} ON CONFLICT (method, path, key) DO NOTHING`,
      responseValues(record, createdAt),
    );
  }
}

/** An idempotent answer's columns, in INSERT_RESPONSE's order. */
function responseValues(record: IdempotentResponse, createdAt: string): SqlValue[] {
  const { status, headers, body } = record.response;
  return [
    record.method,
    record.path,
    record.key,
    record.fingerprint,
    status,
    JSON.stringify(headers),
    JSON.stringify(body),
    createdAt,
  ];
}
