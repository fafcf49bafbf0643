import type { AttachmentLedger } from '../attachments/attachment-ledger.js';
import type { SqlStore } from './sql-store.js';

/** Results removed per transaction: small, so a write waiting behind one waits milliseconds. */
const RESULTS_PER_BATCH = 2000;
/** Runs looked up per pass of the oldest. */
const RUNS_PER_PASS = 20;
const DAY_MS = 24 * 60 * 60_000;
/** How often retention looks again once nothing is left to remove. */
const IDLE_MS = 10 * 60_000;

/**
 * `keepDays`: removes runs created more than that many days ago, with their results, counts,
 * tags, and saved idempotent answers of the same age. It works in the background in small
 * transactions (RESULTS_PER_BATCH results each), yielding between them, so writes interleave
 * and never wait for a whole run of 100,000 results to go. A run being removed loses its
 * results before the run itself goes (results point to their run).
 */
export class Retention {
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<void> = Promise.resolve();

  /** The run's attached files go with it, and a file no run has any more goes too (attachment-ledger.ts). */
  #files: AttachmentLedger | undefined;

  private constructor(
    private readonly store: SqlStore,
    private readonly keepMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  static start(
    store: SqlStore,
    keepDays: number,
    onError: (error: unknown) => void = (error) =>
      process.emitWarning(`testrun retention: ${(error as Error).message}`),
    files?: AttachmentLedger,
  ): Retention {
    const retention = Retention.paused(store, keepDays, onError, files);
    retention.#schedule(0);
    return retention;
  }

  /** Retention that only removes when `runOnce` is called. */
  static paused(
    store: SqlStore,
    keepDays: number,
    onError: (error: unknown) => void = () => {},
    files?: AttachmentLedger,
  ): Retention {
    const retention = new Retention(store, keepDays * DAY_MS, onError);
    retention.#files = files;
    return retention;
  }

  /** One pass now, resolved once everything older than the limit is gone (for tests). */
  async runOnce(now = Date.now()): Promise<number> {
    const cutoff = new Date(now - this.keepMs).toISOString();
    let removed = 0;
    for (;;) {
      const runs = await this.store.runsCreatedBefore(cutoff, RUNS_PER_PASS);
      for (const run of runs) {
        if (this.#stopped) return removed;
        await this.#removeRun(run.seq, run.total, cutoff);
        removed += 1;
      }
      if (runs.length < RUNS_PER_PASS || this.#stopped) break;
    }
    await this.store.write(async (tx) => {
      await tx.tx.query('DELETE FROM idempotent_responses WHERE created_at < $1', [cutoff]);
      await tx.tx.query('DELETE FROM shard_plans WHERE created_at < $1', [cutoff]);
    });
    return removed;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#pass;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#pass = this.runOnce()
        .then(
          () => {},
          (error) => this.onError(error),
        )
        .then(() => this.#schedule(IDLE_MS));
    }, delayMs);
    this.#timer.unref();
  }

  async #removeRun(seq: number, total: number, cutoff: string): Promise<void> {
    for (let from = 0; from < total && !this.#stopped; from += RESULTS_PER_BATCH) {
      await this.store.write((tx) =>
        tx.tx.query('DELETE FROM results WHERE run_seq = $1 AND position >= $2 AND position < $3', [
          seq,
          from,
          from + RESULTS_PER_BATCH,
        ]),
      );
      // Let waiting requests in between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.#stopped) return;
    await this.#files?.removeRunFiles(seq, cutoff);
    await this.store.write(async (tx) => {
      // Results written after the batches above (a late shard) go with the run.
      await tx.tx.query('DELETE FROM results WHERE run_seq = $1', [seq]);
      await tx.tx.query('DELETE FROM run_counts WHERE run_seq = $1', [seq]);
      await tx.tx.query('DELETE FROM run_tags WHERE run_seq = $1', [seq]);
      await tx.tx.query('DELETE FROM run_shards WHERE run_seq = $1', [seq]);
      await tx.tx.query('DELETE FROM runs WHERE seq = $1', [seq]);
    });
  }
}
