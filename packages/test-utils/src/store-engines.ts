import { afterAll } from 'vitest';
import { havePostgres, type PostgresServer, startPostgres } from './postgres.js';

/**
 * The database engines the server's store runs on, for tests that must hold on both:
 * `describe.each(storeEngines())('… on $name', ({ target }) => …)`. Each `target()` is a
 * fresh, empty database, given as the server's options name it (`database`: a PostgreSQL
 * URL; neither: the embedded SQLite in memory). PostgreSQL is started once per test file, on
 * its first use, and stopped after the file; without it installed, only SQLite is listed
 * and POSTGRES_MISSING is said once.
 */
export interface StoreEngine {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty database of this engine. */
  target(): Promise<DatabaseTarget>;
}

/** Where a server keeps its data, as ServerOptions says it. */
export interface DatabaseTarget {
  /** A `postgres://` URL. */
  database?: string;
}

let shared: StoreEngine[] | undefined;

/**
 * Call at the top level of a test file, e.g. in `describe.each(storeEngines())`: the first call
 * registers the file's `afterAll` that stops PostgreSQL, and every call in the file answers
 * the same engines, so the file starts one PostgreSQL however many suites it has.
 */
export function storeEngines(): StoreEngine[] {
  if (shared) return shared;
  const engines: StoreEngine[] = [{ name: 'sqlite', target: async () => ({}) }];
  if (havePostgres()) {
    let server: Promise<PostgresServer> | undefined;
    afterAll(async () => {
      shared = undefined;
      if (server) await (await server).stop();
    });
    engines.push({
      name: 'postgres',
      target: async () => {
        server ??= startPostgres();
        return { database: await (await server).createDatabase() };
      },
    });
  }
  shared = engines;
  return engines;
}
