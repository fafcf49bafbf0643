// Fills a database with figure 10's runs (bench-runs.mjs: the same projects, frameworks, tags,
// statuses and durations) in a few SQL statements instead of 200,000 HTTP requests, so the
// page queries can be profiled (EXPLAIN, page timings: scale-reads.mjs) at 10,000,000 results
// in minutes, again and again on one load. Not a figure: ingest is what server-scale.mjs measures.
//
//   node bench/lib/scale-fill.mjs --database postgres://… [--runs 100000]
//   node bench/lib/scale-fill.mjs --data DIR [--runs 100000]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createServer } from '@testrun/server';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    data: { type: 'string' },
    runs: { type: 'string', default: '100000' },
  },
});
const runs = Number(values.runs);
const server = await createServer({
  port: 0,
  ...(values.database ? { database: values.database } : { data: values.data }),
});
const { db } = server.store;
const postgres = db.dialect === 'postgres';
const existing = await db.query('SELECT count(*) AS n FROM runs');
if (Number(existing[0].n) > 0) throw new Error('the database already holds runs: fill an empty one');

// Run n (0-based, seq n + 1) created 5 ms after run n - 1, as ISO 8601 in UTC like the server writes.
const createdAt = postgres
  ? `to_char(timestamp '2026-11-20 00:00:00' + n * interval '5 milliseconds', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
  : `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-20 00:00:00', '+' || (n * 0.005) || ' seconds')`;
const steps = [
  ['numbers', 'CREATE TABLE bench_n (n BIGINT PRIMARY KEY)'],
  [
    '',
    `WITH RECURSIVE c(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM c WHERE n + 1 < ${runs}) INSERT INTO bench_n SELECT n FROM c`,
  ],
  [
    'runs',
    `INSERT INTO runs (seq, id, project, framework, tags, created_at, last_received_at, total, total_duration)
     SELECT n + 1, 'bench-run-' || n, 'project-' || (n % 10),
       CASE (n % 10) % 3 WHEN 0 THEN 'vitest' WHEN 1 THEN 'jest' ELSE 'playwright' END,
       CASE WHEN n % 7 = 0 THEN '["branch:main","nightly"]' ELSE '["branch:main"]' END,
       ${createdAt}, ${createdAt}, 100, 0
     FROM bench_n ORDER BY n`,
  ],
  ['', `UPDATE counters SET value = ${runs} WHERE name = 'run'`],
  ['run_tags', `INSERT INTO run_tags (tag, run_seq) SELECT 'branch:main', n + 1 FROM bench_n`],
  ['', `INSERT INTO run_tags (tag, run_seq) SELECT 'nightly', n + 1 FROM bench_n WHERE n % 7 = 0`],
];
const CHUNK = 5000;
for (let from = 0; from < runs; from += CHUNK) {
  steps.push([
    from === 0 ? 'results' : '',
    `INSERT INTO results (run_seq, position, test_suite, test_case, status, duration)
     SELECT r.n + 1, s.n * 5 + t.n, 'src/module-' || s.n || '.test.ts', 'module ' || s.n || ' > case ' || t.n,
       CASE WHEN s.n = 0 AND t.n = 0 THEN (CASE WHEN (r.n / 10) % 3 = 0 THEN 'failed' ELSE 'passed' END)
            WHEN (r.n * 31 + s.n * 7 + t.n) % 97 = 0 THEN 'failed'
            WHEN t.n = 4 AND s.n % 5 = 0 THEN 'skipped' ELSE 'passed' END,
       1 + ((r.n + s.n * 5 + t.n) % 50) * 3.7
     FROM bench_n r CROSS JOIN bench_n s CROSS JOIN bench_n t
     WHERE r.n >= ${from} AND r.n < ${Math.min(runs, from + CHUNK)} AND s.n < 20 AND t.n < 5
     ORDER BY r.n, s.n, t.n`,
  ]);
}
steps.push(
  [
    'run_counts',
    `INSERT INTO run_counts (run_seq, status, count, first_position)
     SELECT run_seq, status, count(*), min(position) FROM results GROUP BY run_seq, status`,
  ],
  [
    'durations',
    'UPDATE runs SET total_duration = (SELECT sum(duration) FROM results WHERE results.run_seq = runs.seq)',
  ],
  ['', 'DROP TABLE bench_n'],
);
const started = performance.now();
for (const [label, sql] of steps) {
  if (label) console.log(`${label} … ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await db.query(sql);
}
// What server-scale.mjs does after its load: statistics, as autovacuum keeps them over time.
if (postgres) await db.query('ANALYZE');
console.log(`filled ${runs} runs in ${((performance.now() - started) / 1000).toFixed(0)} s`);
await server.close();
