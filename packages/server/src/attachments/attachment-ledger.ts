import type { SqlExecutor } from '../database/sql-database.js';
import type { SqlStore } from '../ledger/sql-store.js';
import type { BlobStore, ByteRange } from './blob-store.js';

// What the database says about attached files (migration 9): each file once by its hash
// (`attachment_blobs`, its bytes in the BlobStore), which runs have which (`run_attachments`),
// and each run's total against its limit (`runs.attachment_bytes`).

export type LinkOutcome =
  | { kind: 'created' }
  /** The run had the file already: an upload retried or replayed, or two results of one run. */
  | { kind: 'present' }
  | { kind: 'no-run' }
  /** The file would take the run's files past the limit: its total so far. */
  | { kind: 'run-full'; runBytes: number };

export class AttachmentLedger {
  constructor(
    private readonly store: SqlStore,
    readonly blobs: BlobStore,
  ) {}

  /** The run's seq and its files' total so far; undefined for an unknown run. */
  async runFiles(runId: string): Promise<{ seq: number; bytes: number } | undefined> {
    const rows = await this.store.db.query<{ seq: number | string; attachment_bytes: number | string }>(
      'SELECT seq, attachment_bytes FROM runs WHERE id = $1',
      [runId],
    );
    const row = rows[0];
    return row ? { seq: Number(row.seq), bytes: Number(row.attachment_bytes) } : undefined;
  }

  /** The file of a run, if the run has it: its size. */
  async fileOf(runId: string, sha256: string): Promise<{ size: number } | undefined> {
    const rows = await this.store.db.query<{ size: number | string }>(
      'SELECT run_attachments.size FROM run_attachments JOIN runs ON runs.seq = run_attachments.run_seq WHERE runs.id = $1 AND run_attachments.sha256 = $2',
      [runId, sha256],
    );
    return rows[0] ? { size: Number(rows[0].size) } : undefined;
  }

  /** The hashes of the files the run has received: what its results' names can be read from. */
  async receivedHashes(runId: string): Promise<Set<string>> {
    const rows = await this.store.db.query<{ sha256: string }>(
      'SELECT sha256 FROM run_attachments WHERE run_seq = (SELECT seq FROM runs WHERE id = $1)',
      [runId],
    );
    return new Set(rows.map((row) => row.sha256));
  }

  /**
   * Links the checked bytes in `file` to the run as `sha256`, in one transaction: the run's
   * total moves on within `maxRunBytes` (one UPDATE checks and adds, so servers sharing a
   * database cannot pass it together), the file's row is inserted or marked linked now, and
   * its bytes are kept when they are new.
   */
  link(runId: string, sha256: string, size: number, file: string, maxRunBytes: number): Promise<LinkOutcome> {
    return this.blobs.store(sha256, file, (writeBytes) =>
      this.store.write(async (writer): Promise<LinkOutcome> => {
        const { tx } = writer;
        const now = new Date().toISOString();
        const run = await tx.query<{ seq: number | string; attachment_bytes: number | string }>(
          'SELECT seq, attachment_bytes FROM runs WHERE id = $1',
          [runId],
        );
        if (!run[0]) return { kind: 'no-run' };
        const seq = Number(run[0].seq);
        const had = await tx.query('SELECT size FROM run_attachments WHERE run_seq = $1 AND sha256 = $2', [
          seq,
          sha256,
        ]);
        if (had.length > 0) return { kind: 'present' };
        const counted = await tx.query(
          'UPDATE runs SET attachment_bytes = attachment_bytes + $2 WHERE seq = $1 AND attachment_bytes + $2 <= $3 RETURNING seq',
          [seq, size, maxRunBytes],
        );
        if (counted.length === 0) return { kind: 'run-full', runBytes: Number(run[0].attachment_bytes) };
        await keepBlob(tx, sha256, size, now, writeBytes);
        await tx.query(
          'INSERT INTO run_attachments (run_seq, sha256, size, received_at) VALUES ($1, $2, $3, $4)',
          [seq, sha256, size, now],
        );
        return { kind: 'created' };
      }),
    );
  }

  read(sha256: string, size: number, range?: ByteRange) {
    return this.blobs.read(sha256, size, range);
  }

  /**
   * Retention: the run's files leave it, and each file no run has any more, and nobody linked
   * since `cutoff`, is removed with its bytes. An upload under way links its file now, which
   * keeps it; on PostgreSQL its UPDATE of `linked_at` holds the row until it commits.
   */
  async removeRunFiles(seq: number, cutoff: string): Promise<void> {
    const hashes = await this.store.db.query<{ sha256: string }>(
      'SELECT sha256 FROM run_attachments WHERE run_seq = $1',
      [seq],
    );
    await this.store.write((writer) =>
      writer.tx.query('DELETE FROM run_attachments WHERE run_seq = $1', [seq]),
    );
    for (const { sha256 } of hashes) {
      await this.blobs.remove(sha256, (deleteBytes) =>
        this.store.write(async ({ tx }) => {
          const gone = await tx.query(
            `DELETE FROM attachment_blobs WHERE sha256 = $1 AND linked_at < $2
               AND NOT EXISTS (SELECT 1 FROM run_attachments WHERE sha256 = $1) RETURNING sha256`,
            [sha256, cutoff],
          );
          if (gone.length === 0) return false;
          await deleteBytes(tx);
          return true;
        }),
      );
    }
  }
}

/** The file's row, inserted (and its bytes kept) when it is new, else marked linked now. */
async function keepBlob(
  tx: SqlExecutor,
  sha256: string,
  size: number,
  now: string,
  writeBytes: (tx: SqlExecutor) => Promise<void>,
): Promise<void> {
  // Twice at most: a row removed by retention between the two statements is inserted again.
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await tx.query(
      `INSERT INTO attachment_blobs (sha256, size, stored_at, linked_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (sha256) DO NOTHING RETURNING sha256`,
      [sha256, size, now],
    );
    if (inserted.length > 0) {
      await writeBytes(tx);
      return;
    }
    const linked = await tx.query(
      'UPDATE attachment_blobs SET linked_at = $2 WHERE sha256 = $1 RETURNING sha256',
      [sha256, now],
    );
    if (linked.length > 0) return;
  }
  throw new Error(`the file ${sha256} could not be recorded: it was removed while it was linked`);
}
