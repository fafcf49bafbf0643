import { claimDataFolder } from './data-folder.js';
import { isPostgresUrl, redactDatabaseUrl } from './database-url.js';
import type { SqlDatabase } from './sql-database.js';
import { explainedWriteError, SqliteDatabase } from './sqlite.js';

/** Where the server keeps its data: a team's PostgreSQL, a data folder, or neither (memory). */
export interface DatabaseTarget {
  /** A `postgres://` URL. */
  database?: string | undefined;
  /** A folder for the embedded SQLite database. */
  data?: string | undefined;
}

export interface OpenedDatabase {
  db: SqlDatabase;
  /** Where it is, for people: the folder, the URL without its password, or `memory`. */
  where: string;
  /** The data folder, when the database is the embedded one on disk: attached files are kept beside it. */
  folder?: string;
  /** Closes the database and lets go of the data folder. */
  close(): Promise<void>;
}

export async function openDatabase({ database, data }: DatabaseTarget): Promise<OpenedDatabase> {
  if (database !== undefined) {
    if (!isPostgresUrl(database)) {
      throw new TypeError('database must be a PostgreSQL URL: postgres://user:password@host:5432/database');
    }
    const db = await openPostgres(database);
    return { db, where: redactDatabaseUrl(database), close: () => db.close() };
  }
  if (data === undefined) {
    const db = SqliteDatabase.open(undefined);
    return { db, where: 'memory', close: () => db.close() };
  }
  const folder = await claimDataFolder(data);
  try {
    let db: SqliteDatabase;
    try {
      db = SqliteDatabase.open(folder.databaseFile);
    } catch (error) {
      throw await explainedWriteError(folder.databaseFile, error);
    }
    return {
      db,
      where: folder.folder,
      folder: folder.folder,
      close: async () => {
        await db.close();
        await folder.release();
      },
    };
  } catch (error) {
    await folder.release();
    throw error;
  }
}

/** Opens a PostgreSQL database, loading the driver (`pg`, in postgres.ts) only now. */
export async function openPostgres(url: string): Promise<SqlDatabase> {
  const { openPostgresDatabase } = await import('./postgres.js');
  return openPostgresDatabase(url);
}
