import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { SqlDatabase, SqlExecutor } from '../database/sql-database.js';

// Where an attached file's bytes are kept, by their SHA-256 (docs/design/attachments.md):
// files in the data folder beside the embedded database; the database itself where several
// servers share it (PostgreSQL) or nothing is kept on disk (an in-memory server). A file's
// name never reaches a path: only its hash does, checked to be 64 hex digits first.

/** Bytes per row of `attachment_chunks`. */
export const CHUNK_BYTES = 1024 * 1024;

const SHA256 = /^[0-9a-f]{64}$/;

/** Bytes `start` to `end`, both included, as an HTTP Range says them. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  readonly kind: 'folder' | 'database';
  /** A fresh path where an upload's bytes are written while they arrive and are checked. */
  incomingFile(): Promise<string>;
  /**
   * Keeps the checked bytes of `file` as `sha256` while `record` (the transaction that links
   * the file to its run) runs: `record` calls `writeBytes` in its transaction when the file is
   * new. A folder moves the file into place first; the database writes its chunks in the
   * transaction, so the row and the bytes commit together.
   */
  store<T>(
    sha256: string,
    file: string,
    record: (writeBytes: (tx: SqlExecutor) => Promise<void>) => Promise<T>,
  ): Promise<T>;
  /** The bytes of `sha256` (of `size` bytes), or the range of them. */
  read(sha256: string, size: number, range?: ByteRange): Readable;
  /** Removes the bytes of `sha256` when `drop` (the transaction that deletes its row) says it did. */
  remove(
    sha256: string,
    drop: (deleteBytes: (tx: SqlExecutor) => Promise<void>) => Promise<boolean>,
  ): Promise<void>;
}

function checked(sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${JSON.stringify(sha256.slice(0, 80))}`);
  return sha256;
}

/** One turn at a time per hash: a file moved into place and its row, or its row and the file's removal. */
class HashLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const turn = before.then(work, work);
    const tail = turn.catch(() => {});
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return turn;
  }
}

/**
 * Files in `<data>/attachments/<first two hex digits>/<sha256>`, written whole and synced
 * before they are renamed into place, so a file is there entire or not at all. One server owns
 * a data folder (data-folder.ts), so a lock per hash in this process keeps a file's move and
 * removal from crossing.
 */
export class FolderBlobs implements BlobStore {
  readonly kind = 'folder' as const;
  readonly #locks = new HashLocks();

  constructor(private readonly dir: string) {}

  async incomingFile(): Promise<string> {
    const incoming = path.join(this.dir, 'incoming');
    await fs.promises.mkdir(incoming, { recursive: true, mode: 0o700 });
    return path.join(incoming, randomUUID());
  }

  pathOf(sha256: string): string {
    const hash = checked(sha256);
    return path.join(this.dir, hash.slice(0, 2), hash);
  }

  store<T>(
    sha256: string,
    file: string,
    record: (writeBytes: (tx: SqlExecutor) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const target = this.pathOf(sha256);
    return this.#locks.run(sha256, async () => {
      if (!fs.existsSync(target)) {
        const handle = await fs.promises.open(file, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await fs.promises.rename(file, target);
        await syncDirectory(path.dirname(target));
      }
      return record(async () => {});
    });
  }

  read(sha256: string, _size: number, range?: ByteRange): Readable {
    return fs.createReadStream(this.pathOf(sha256), range ? { start: range.start, end: range.end } : {});
  }

  remove(
    sha256: string,
    drop: (deleteBytes: (tx: SqlExecutor) => Promise<void>) => Promise<boolean>,
  ): Promise<void> {
    const target = this.pathOf(sha256);
    return this.#locks.run(sha256, async () => {
      if (await drop(async () => {})) await fs.promises.rm(target, { force: true });
    });
  }
}

/** The bytes in `attachment_chunks`, 1 MiB a row, written in the transaction that records the file. */
export class DatabaseBlobs implements BlobStore {
  readonly kind = 'database' as const;

  constructor(private readonly db: SqlDatabase) {}

  async incomingFile(): Promise<string> {
    return path.join(os.tmpdir(), `testrun-upload-${randomUUID()}`);
  }

  store<T>(
    sha256: string,
    file: string,
    record: (writeBytes: (tx: SqlExecutor) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const hash = checked(sha256);
    return record(async (tx) => {
      const handle = await fs.promises.open(file, 'r');
      try {
        const buffer = Buffer.alloc(CHUNK_BYTES);
        for (let chunk = 0; ; chunk++) {
          const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, chunk * CHUNK_BYTES);
          if (bytesRead === 0) break;
          await tx.query(
            'INSERT INTO attachment_chunks (sha256, chunk, bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256, chunk) DO NOTHING',
            [hash, chunk, Buffer.from(buffer.subarray(0, bytesRead))],
          );
          if (bytesRead < CHUNK_BYTES) break;
        }
      } finally {
        await handle.close();
      }
    });
  }

  read(sha256: string, size: number, range?: ByteRange): Readable {
    const hash = checked(sha256);
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let chunk = Math.floor(start / CHUNK_BYTES); chunk * CHUNK_BYTES <= end; chunk++) {
        const rows = await db.query<{ bytes: Uint8Array }>(
          'SELECT bytes FROM attachment_chunks WHERE sha256 = $1 AND chunk = $2',
          [hash, chunk],
        );
        const bytes = rows[0]?.bytes;
        if (!bytes) throw new Error(`the bytes of ${hash} are missing from the database (chunk ${chunk})`);
        const at = chunk * CHUNK_BYTES;
        const from = Math.max(0, start - at);
        const to = Math.min(bytes.length, end - at + 1);
        yield Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from);
      }
    }
    return Readable.from(chunks());
  }

  async remove(
    sha256: string,
    drop: (deleteBytes: (tx: SqlExecutor) => Promise<void>) => Promise<boolean>,
  ): Promise<void> {
    const hash = checked(sha256);
    await drop(async (tx) => {
      await tx.query('DELETE FROM attachment_chunks WHERE sha256 = $1', [hash]);
    });
  }
}

/** A directory's entry for a renamed file reaches the disk with the directory's fsync (where the platform has one). */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch {
    // Not every platform syncs a directory (Windows); the file itself was synced.
  } finally {
    await handle?.close();
  }
}
