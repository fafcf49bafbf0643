import { havePostgres, type PostgresServer, startPostgres } from './postgres.js';

/**
 * The database engines the server's store runs on, for tests that must hold on both:
 * `describe.each(storeEngines())('… on $name', ({ target }) => …)`. Each `target()` is a
 * fresh, empty database, given as the server's options name it (`database`: a PostgreSQL
 * URL; neither: the embedded SQLite in memory). PostgreSQL is started once per test process,
 * on its first use, and stopped when the process ends: a worker of the `unit` project runs
 * many files (isolate: false), which share it (an initdb each cost ~2 s of CPU, ~15 s at a
 * load of 18), each test in a database of its own. Without it installed, only SQLite is
 * listed and POSTGRES_MISSING is said once.
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
let server: Promise<PostgresServer> | undefined;

/** Call at the top level of a test file, e.g. in `describe.each(storeEngines())`; every call answers the same engines. */
export function storeEngines(): StoreEngine[] {
  if (shared) return shared;
  const engines: StoreEngine[] = [{ name: 'sqlite', target: async () => ({}) }];
  if (havePostgres()) {
    engines.push({
      name: 'postgres',
      target: async () => {
        server ??= startPostgres().then((started) => {
          stopWithTheProcess(started);
          return started;
        });
        return { database: await (await server).createDatabase() };
      },
    });
  }
  shared = engines;
  return engines;
}

/**
 * Vitest ends a worker with SIGTERM, which runs no `exit` listener: the cluster is stopped
 * first, then the signal is raised again to end the process as it would have (the suite's
 * leftover check, leftover-processes.ts, names a cluster left running).
 */
function stopWithTheProcess(postgres: PostgresServer): void {
  process.once('SIGTERM', () => {
    postgres.stopNow();
    process.kill(process.pid, 'SIGTERM');
  });
}
