import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  havePostgres,
  type PostgresServer,
  postgresBinDir,
  removeAbandonedClusters,
  startPostgres,
} from '../src/postgres.js';
import { storeEngines } from '../src/store-engines.js';
import { tempDir } from '../src/temp-dir.js';

function fakeBinDir(root: string, dir: string, names = ['initdb', 'pg_ctl', 'postgres']): string {
  const bin = path.join(root, dir);
  fs.mkdirSync(bin, { recursive: true });
  for (const name of names) fs.writeFileSync(path.join(bin, name), '#!/bin/sh\n', { mode: 0o755 });
  return bin;
}

describe('postgresBinDir', () => {
  const root = tempDir('testrun-pgbin-');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds the binaries in Debian’s versioned folder, which is not on PATH, newest version first', () => {
    const debian = path.join(root, 'debian');
    fakeBinDir(debian, '9.6/bin');
    const newest = fakeBinDir(debian, '15/bin');
    fakeBinDir(debian, '13/bin');
    expect(postgresBinDir('/nowhere', debian)).toBe(newest);
  });

  it('prefers PATH, and skips a folder that has only some of the three', () => {
    const partial = fakeBinDir(root, 'partial', ['initdb', 'pg_ctl']);
    const complete = fakeBinDir(root, 'complete');
    expect(postgresBinDir([partial, complete].join(path.delimiter), path.join(root, 'none'))).toBe(complete);
  });

  it('answers undefined when PostgreSQL is not installed', () => {
    expect(postgresBinDir(path.join(root, 'empty'), path.join(root, 'none'))).toBeUndefined();
  });
});

describe('removeAbandonedClusters', () => {
  it('removes the clusters whose test process is gone, and those without an owner over an hour old; keeps the rest', () => {
    const dir = tempDir('testrun-pgsweep-');
    const cluster = (name: string, owner?: number) => {
      const root = path.join(dir, `testrun-pg-${name}`);
      fs.mkdirSync(path.join(root, 'data'), { recursive: true });
      fs.writeFileSync(path.join(root, 'data', 'PG_VERSION'), '15\n');
      if (owner !== undefined) fs.writeFileSync(path.join(root, 'owner.pid'), String(owner));
      return root;
    };
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    cluster('gone', Number(gone.stdout));
    cluster('live', process.pid);
    const old = cluster('old');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    fs.utimesSync(old, twoHoursAgo, twoHoursAgo);
    cluster('new');
    fs.mkdirSync(path.join(dir, 'testrun-spool-other'));

    removeAbandonedClusters(dir);

    expect(fs.readdirSync(dir).sort()).toEqual(['testrun-pg-live', 'testrun-pg-new', 'testrun-spool-other']);
    fs.rmSync(dir, { recursive: true });
  });
});

describe.skipIf(!havePostgres())('startPostgres: a real server for one test file', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());

  async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }

  it('answers a URL of a running server on 127.0.0.1 that asks for its password', async () => {
    expect(server.url).toMatch(/^postgres:\/\/testrun:[0-9a-f]+@127\.0\.0\.1:\d+\/postgres$/);
    const [row] = await query(server.url, 'SELECT current_user AS who');
    expect(row).toEqual({ who: 'testrun' });
    const wrong = server.url.replace(server.password, 'not-the-password');
    await expect(query(wrong, 'SELECT 1')).rejects.toThrow(/password authentication failed/);
  });

  it('creates a fresh, empty database per call', async () => {
    const first = await server.createDatabase();
    const second = await server.createDatabase();
    expect(first).not.toBe(second);
    await query(first, 'CREATE TABLE only_here (id int)');
    const tables = await query(
      second,
      `SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_here'`,
    );
    expect(tables).toEqual([{ n: 0 }]);
  });

  it('stops: the port refuses connections and the cluster’s files are gone', async () => {
    const other = await startPostgres();
    expect(fs.existsSync(path.join(other.directory, 'data', 'PG_VERSION'))).toBe(true);
    await other.stop();
    expect(fs.existsSync(other.directory)).toBe(false);
    await expect(query(other.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('storeEngines', () => {
  const engines = storeEngines();

  it('lists SQLite, and PostgreSQL where it is installed', () => {
    expect(engines.map(({ name }) => name)).toEqual(havePostgres() ? ['sqlite', 'postgres'] : ['sqlite']);
  });

  it.skipIf(!havePostgres())(
    'gives a fresh PostgreSQL database per target, on one server per test process',
    async () => {
      const postgres = engines.find(({ name }) => name === 'postgres')!;
      const first = (await postgres.target()).database!;
      const second = (await postgres.target()).database!;
      expect(first).not.toBe(second);
      expect(new URL(first).port).toBe(new URL(second).port);
    },
  );
});
