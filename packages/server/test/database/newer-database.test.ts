import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/database/migrations.js';
import { openDatabase } from '../../src/database/open-database.js';

// A database a newer server migrated (a data folder copied back to an older install, an old
// server restarted beside upgraded ones on one PostgreSQL): an older server does not know
// what the later migrations changed, and is refused before it writes anything.

describe.each(storeEngines())('a database from a newer server ($name)', (engine) => {
  it('is refused at start, naming both schema versions and what to do, and left as it was', async () => {
    const opened = await openDatabase(await engine.target());
    onTestFinished(() => opened.close());
    const { db } = opened;
    await migrate(db);
    const newest = Math.max(...MIGRATIONS.map((migration) => migration.version));
    await db.query(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'from the future', 'x')",
      [newest + 1],
    );
    const before = await db.query('SELECT version FROM schema_migrations ORDER BY version');

    await expect(migrate(db)).rejects.toMatchObject({
      code: 'database_from_newer_server',
      message: expect.stringContaining(
        `schema version ${newest + 1}; this server knows versions up to ${newest}): upgrade @testrun/cli`,
      ),
    });
    // Nor does an older list of migrations apply its own to it.
    await expect(migrate(db, MIGRATIONS.slice(0, 1))).rejects.toMatchObject({
      code: 'database_from_newer_server',
    });
    expect(await db.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual(before);
  });
});
