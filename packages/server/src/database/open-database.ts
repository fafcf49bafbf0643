import { claimDataFolder } from './data-folder.js';
import type { SqlDatabase } from './sql-database.js';
import { SqliteDatabase } from './sqlite.js';

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
  /** Closes the database and lets go of the data folder. */
  close(): Promise<void>;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** PostgreSQL's module, loaded only for a postgres:// URL so its driver is never loaded otherwise. */
const POSTGRES_MODULE = './postgres.js';

export async function openDatabase({ database, data }: DatabaseTarget): Promise<OpenedDatabase> {
  if (database !== undefined) {
    if (!POSTGRES_URL.test(database)) {
      throw new TypeError('database must be a PostgreSQL URL: postgres://user:password@host:5432/database');
    }
    // The hook the PostgreSQL store (src/database/postgres.ts) fills in.
    const { openPostgresDatabase } = (await import(POSTGRES_MODULE)) as {
      openPostgresDatabase: (url: string) => Promise<SqlDatabase>;
    };
    const db = await openPostgresDatabase(database);
    return { db, where: database.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@'), close: () => db.close() };
  }
  if (data === undefined) {
    const db = SqliteDatabase.open(undefined);
    return { db, where: 'memory', close: () => db.close() };
  }
  const folder = await claimDataFolder(data);
  try {
    const db = SqliteDatabase.open(folder.databaseFile);
    return {
      db,
      where: folder.folder,
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
