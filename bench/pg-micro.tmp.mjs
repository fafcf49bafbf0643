// scratch: PG CPU per request shape

import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { resultsOf } from './lib/bench-runs.mjs';
import { startPostgres } from './lib/postgres.mjs';

const require = createRequire(new URL('../packages/server/package.json', import.meta.url));
const pg = require('pg');
const { openDatabase } = await import('../packages/server/dist/database/open-database.js');
const { migrate } = await import('../packages/server/dist/database/migrations.js');
const pgc = await startPostgres();
const opened = await openDatabase({ database: pgc.url });
await migrate(opened.db);
if (process.env.NOFK) await opened.db.query('ALTER TABLE results DROP CONSTRAINT results_run_seq_fkey');
if (process.env.DROP) for (const ix of process.env.DROP.split(',')) await opened.db.query(`DROP INDEX ${ix}`);
await opened.close();
const pool = new pg.Pool({ connectionString: pgc.url, max: 10 });
const N = 2000,
  C = 10;
const variants = {
  tx4: async (c, i, runId) => {
    await c.query('BEGIN');
    await c.query({ name: 'a', text: ADD, values: args(runId, i) });
    await c.query({ name: 's', text: SAVE, values: saveArgs() });
    await c.query('COMMIT');
  },
  one: async (c, i, runId) => {
    await c.query({ name: 'o', text: ONE, values: [...args(runId, i), ...saveArgs()] });
  },
  tx3: async (c, i, runId) => {
    await c.query('BEGIN');
    await c.query({ name: 'o', text: ONE, values: [...args(runId, i), ...saveArgs()] });
    await c.query('COMMIT');
  },
};
const ADD = `WITH run AS (
    UPDATE runs SET total = total + $2::bigint, total_duration = total_duration + $3::double precision,
      last_received_at = COALESCE($4::text, last_received_at)
    WHERE id = $1 RETURNING seq, total - $2::bigint AS first
  ), batch AS (
    SELECT run.seq, run.first + ordinality - 1 AS position, r
    FROM run, jsonb_array_elements($5::jsonb) WITH ORDINALITY AS t(r, ordinality)
  ), inserted AS (
    INSERT INTO results (run_seq, position, test_suite, test_case, status, duration, details, attempts)
    SELECT seq, position, r ->> 0, r ->> 1, r ->> 2, (r ->> 3)::double precision, r ->> 4, (r ->> 5)::bigint FROM batch
  ), counted AS (
    INSERT INTO run_counts (run_seq, status, count, first_position)
    SELECT seq, r ->> 2, count(*), min(position) FROM batch GROUP BY seq, r ->> 2
    ON CONFLICT (run_seq, status) DO UPDATE SET count = run_counts.count + excluded.count
  )
  SELECT seq FROM run`;
const SAVE = `INSERT INTO idempotent_responses (method, path, key, fingerprint, status, headers, body, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (method, path, key) DO NOTHING RETURNING key`;
const ONE =
  ADD.replace('SELECT seq FROM run', '').replace(/\)\s*$/, '') +
  `), saved AS (INSERT INTO idempotent_responses (method, path, key, fingerprint, status, headers, body, created_at)
       VALUES ($6, $7, $8, $9, $10, $11, $12, $13) RETURNING key) SELECT seq FROM run, saved`;
function args(runId, i) {
  const rs = resultsOf(i);
  return [
    runId,
    rs.length,
    1,
    new Date().toISOString(),
    JSON.stringify(rs.map((r) => [r.testSuite, r.testCase, r.status, r.duration, null, null])),
  ];
}
function saveArgs() {
  return [
    'POST',
    '/x',
    randomUUID(),
    'f'.repeat(64),
    201,
    '{}',
    '{"accepted":100}',
    new Date().toISOString(),
  ];
}
for (const name of process.argv.slice(2)) {
  const ids = [];
  for (let i = 0; i < N; i++) {
    const id = randomUUID();
    ids.push(id);
    await pool.query(
      `INSERT INTO runs (seq,id,project,framework,tags,created_at,last_received_at) VALUES (nextval('run_numbers'),$1,'p','f','[]','x','x')`,
      [id],
    );
  }
  const cpu0 = pgc.cpuMs();
  const me0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      const c = await pool.connect();
      while (next < N) {
        const i = next++;
        await variants[name](c, i, ids[i]);
      }
      c.release();
    }),
  );
  const ms = performance.now() - t0;
  const cpu = pgc.cpuMs() - cpu0;
  const me = process.cpuUsage(me0);
  console.log(
    name,
    `${((N / ms) * 1000).toFixed(0)} req/s; PG CPU ${((cpu / N) * 10).toFixed(1)} ms per 1000 results; node ${(((me.user + me.system) / 1000 / N) * 10).toFixed(1)}`,
  );
}
await pool.end();
pgc.stop();
