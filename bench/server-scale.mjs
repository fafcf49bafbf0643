// Figure 10: the local server at scale (issue 30's figures): 100,000 runs × 100 results sent
// over HTTP by concurrent clients to a server in its own process on a fresh data folder (the
// embedded SQLite) and on a PostgreSQL cluster; then the server is restarted on what it
// stored and every page and read-API call is timed. `scale` shrinks the number of runs
// (0.1: 10,000 runs, 1,000,000 results) so the figure can be run quickly.
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PROJECTS, RESULTS_PER_RUN, resultsOf, runBody } from './lib/bench-runs.mjs';
import { postgresBinDir, startPostgres } from './lib/postgres.mjs';
import { int, max, mb, median, ms } from './lib/stats.mjs';

export const FULL_RUNS = 100_000;
export { RESULTS_PER_RUN } from './lib/bench-runs.mjs';

let CLIENTS = 16;
const ROUNDS = 15;
/** Linux's USER_HZ: /proc's CPU times are in these ticks. */
const CLOCK_TICKS = 100;
const WARM_UP = 3;
export const TARGETS = { pageMs: 100, rssBytes: 300 * 1024 * 1024, resultsPerSecond: 50_000 };
const childScript = fileURLToPath(new URL('./lib/scale-server-child.mjs', import.meta.url));

/** `engines`: 'sqlite' and/or 'postgres'; a PostgreSQL without binaries is skipped with a line. */
export async function run({
  scale = 1,
  engines = ['sqlite', 'postgres'],
  clients = 16,
  ingestOnly = false,
  log = () => {},
} = {}) {
  CLIENTS = clients;
  const runs = Math.max(PROJECTS * 10, Math.round(FULL_RUNS * scale));
  const out = { runs, results: runs * RESULTS_PER_RUN, engines: [], skipped: [], problems: [] };
  for (const engine of engines) {
    if (engine === 'postgres' && !postgresBinDir()) {
      const line =
        'PostgreSQL skipped: no initdb, pg_ctl and postgres on PATH or in /usr/lib/postgresql/*/bin';
      log(`  ${line}`);
      out.skipped.push(line);
      continue;
    }
    log(`  ${engine}: ${int(runs)} runs × ${RESULTS_PER_RUN} results`);
    out.engines.push(await measureEngine(engine, runs, log, out.problems, ingestOnly));
  }
  return out;
}

async function measureEngine(engine, runs, log, problems, ingestOnly) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-scale-'));
  const postgres = engine === 'postgres' ? await startPostgres() : undefined;
  const target = postgres ? { BENCH_DATABASE: postgres.url } : { BENCH_DATA: folder };
  const diskBytes = () => directoryBytes(postgres ? postgres.dataDir : folder);
  const emptyBytes = diskBytes();
  try {
    // ── ingest ──
    let server = await startChild(target);
    const load = os.loadavg()[0];
    const databaseCpuAtStart = postgres?.cpuMs();
    const ingest = await ingestRuns(server, runs, problems);
    if (postgres) ingest.databaseCpuMs = postgres.cpuMs() - databaseCpuAtStart;
    const afterIngest = server.memory();
    log(
      `    ingest: ${int(ingest.resultsPerSecond)} results/s (${(ingest.ms / 1000).toFixed(1)} s), peak RSS ${mb(afterIngest.peak)}; CPU: server ${pct(ingest.serverCpuMs, ingest.ms)}, clients ${pct(ingest.clientCpuMs, ingest.ms)} of one core; server CPU ${perThousand(ingest.serverCpuMs, runs)}${ingest.databaseCpuMs === undefined ? '' : `, PostgreSQL CPU ${perThousand(ingest.databaseCpuMs, runs)}`} ms per 1,000 results`,
    );
    await server.close();
    const measured = {
      engine,
      load,
      ingest,
      peakRssIngest: afterIngest.peak,
      rssAfterIngest: afterIngest.now,
    };
    if (ingestOnly) return { ...measured, rows: [] };
    // PostgreSQL plans from statistics that autovacuum refreshes about once a minute after
    // 10 % of a table changed; a bulk load from empty in a few minutes can leave them stale,
    // which a team's long-lived database does not have. The embedded SQLite plans without them.
    if (postgres) await analyze(postgres.url);
    const disk = diskBytes() - emptyBytes;

    // ── restart on what was stored, then every page ──
    server = await startChild(target);
    const restartMs = server.readyMs;
    const reads = await readEverything(server, runs, problems, log);
    const afterReads = server.memory();
    await server.close();
    return {
      ...measured,
      peakRssReads: afterReads.peak,
      rssAfterReads: afterReads.now,
      diskBytes: disk,
      restartMs,
      rows: reads,
    };
  } finally {
    postgres?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The server in its own process; `readyMs` from fork to listening (its start, migrations included). */
export async function startChild(target) {
  const apiKey = `bench-${randomBytes(12).toString('hex')}`;
  const forked = performance.now();
  const child = fork(childScript, [], {
    env: { ...process.env, BENCH_API_KEY: apiKey, ...target },
    // BENCH_SERVER_ARGS: node flags for the server alone, e.g. `--cpu-prof --cpu-prof-dir=DIR` to profile it.
    execArgv: process.env.BENCH_SERVER_ARGS ? process.env.BENCH_SERVER_ARGS.split(' ') : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
    child.once('message', resolve);
  });
  const readyMs = performance.now() - forked;
  child.removeAllListeners('exit');
  const url = new URL(ready.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  return {
    apiKey,
    readyMs,
    request: (method, pathAndQuery, body) => request(agent, url, apiKey, method, pathAndQuery, body),
    /** CPU time (user + system) the server process has used so far, in ms (Linux /proc). */
    cpuMs: () => {
      const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    },
    /** The server process's resident memory now and its peak since it started (Linux /proc). */
    memory: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
      return { now: kb('VmRSS'), peak: kb('VmHWM') };
    },
    close: async () => {
      agent.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

function request(agent, url, apiKey, method, pathAndQuery, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path: pathAndQuery,
        headers: {
          authorization: `Bearer ${apiKey}`,
          // Every write with an Idempotency-Key, as the reporters send them: the server looks the
          // key up, hashes the body and saves its answer in the write's transaction.
          ...(body === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
                'idempotency-key': randomUUID(),
              }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Run i's results repeat every 14,550 runs (lib/bench-runs.mjs: a failure every 97th case
 * shifted by i, a flaky test in every third round of the 10 projects, durations by i mod 50),
 * and its create-run body every 70.
 */
const RESULTS_PERIOD = 97 * 3 * 10 * 5;
const RUN_BODY_PERIOD = 70;

/**
 * The request bodies, serialized before the clock starts: the clients share the server's two
 * cores, and building 100 results and their JSON for every run took 10–20 % of a core in the
 * bench's own process, time the server did not get. Bodies, not answers: every request still
 * goes over HTTP and is parsed, validated and committed by the server.
 */
function prebuiltBodies(runs) {
  const results = [];
  for (let i = 0; i < Math.min(runs, RESULTS_PERIOD); i++) {
    results.push(Buffer.from(JSON.stringify({ results: resultsOf(i) })));
  }
  const created = [];
  for (let i = 0; i < RUN_BODY_PERIOD; i++) created.push(Buffer.from(JSON.stringify(runBody(i))));
  return {
    run: (i) => created[i % RUN_BODY_PERIOD],
    results: (i) => results[i % RESULTS_PERIOD],
  };
}

/**
 * CLIENTS loops, each taking the next run: create it, send its 100 results in one request
 * (a reporter's batch, well under the server's 1,000 a request), as shards of CI jobs do.
 */
async function ingestRuns(server, runs, problems) {
  const bodies = prebuiltBodies(runs);
  let next = 0;
  let failures = 0;
  const serverCpuAtStart = server.cpuMs();
  const clientCpuAtStart = process.cpuUsage();
  const started = performance.now();
  const client = async () => {
    while (next < runs) {
      const i = next++;
      const created = await server.request('POST', '/api/v1/runs', bodies.run(i));
      if (created.status !== 201) {
        failures += 1;
        continue;
      }
      const { id } = JSON.parse(created.body.toString());
      const sent = await server.request(
        'POST',
        `/api/v1/runs/${encodeURIComponent(id)}/results`,
        bodies.results(i),
      );
      if (sent.status !== 201) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const elapsed = performance.now() - started;
  const clientCpu = process.cpuUsage(clientCpuAtStart);
  if (failures > 0) problems.push(`ingest: ${failures} requests not answered 201`);
  return {
    ms: elapsed,
    resultsPerSecond: (runs * RESULTS_PER_RUN) / (elapsed / 1000),
    requests: runs * 2,
    serverCpuMs: server.cpuMs() - serverCpuAtStart,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
  };
}

/** Every page and read-API call: warm up, then ROUNDS timed fetches of each, one at a time. */
export async function readEverything(server, runs, problems, log) {
  const first = JSON.parse((await server.request('GET', '/api/v1/runs?limit=1')).body.toString());
  const newest = first.runs[0].id;
  // A cursor half-way down the list, reached as a client would: following `next`.
  let deep = '/api/v1/runs?limit=1000';
  for (let seen = 0; seen < runs / 2; seen += 1000) {
    const page = JSON.parse((await server.request('GET', deep)).body.toString());
    if (!page.next) break;
    deep = `/api/v1/runs?limit=50&cursor=${encodeURIComponent(page.next)}`;
  }
  const test = new URLSearchParams({
    project: 'project-3',
    suite: 'src/module-0.test.ts',
    test: 'module 0 > case 0',
  });
  const lastPage = Math.ceil(runs / 50);
  const calls = [
    { name: 'runs list, first page', path: '/' },
    { name: `runs list, last page (page ${int(lastPage)})`, path: `/?page=${lastPage}` },
    { name: `runs list, one project (${int(runs / PROJECTS)} runs)`, path: '/?project=project-3' },
    { name: 'runs list, by tag, page 20', path: '/?tag=nightly&page=20' },
    { name: `run page (${RESULTS_PER_RUN} results)`, path: `/runs/${encodeURIComponent(newest)}` },
    { name: 'run page, searched', path: `/runs/${encodeURIComponent(newest)}?q=module+7` },
    { name: "test page (the project's last 30 runs)", path: `/test?${test}` },
    { name: 'flaky tests, one project', path: '/flaky?project=project-3' },
    { name: `flaky tests, all ${PROJECTS} projects`, path: '/flaky' },
    { name: 'read API: runs, first page (limit 50)', path: '/api/v1/runs?limit=50', api: true },
    { name: `read API: runs, cursor half-way (run ${int(runs / 2)})`, path: deep, api: true },
    {
      name: 'read API: runs of one project (limit 50)',
      path: '/api/v1/runs?project=project-3&limit=50',
      api: true,
    },
    {
      name: `read API: a run's results (${RESULTS_PER_RUN})`,
      path: `/api/v1/runs/${encodeURIComponent(newest)}/results?limit=1000`,
      api: true,
    },
    {
      // A new plan key each time, so each is made from the durations
      // (docs/design/shard-plans.md#the-rule): the branch's and the project's last runs found,
      // their results summed by file.
      name: "shard plan: a new build's (project-3, 4 shards, 22 files, durations of its last runs)",
      path: '/api/v1/plans',
      api: true,
      status: 201,
      body: (round) =>
        JSON.stringify({
          key: `bench-${round}-${randomUUID()}`,
          project: 'project-3',
          shardCount: 4,
          shard: 1,
          branch: 'main',
          files: Array.from({ length: 22 }, (_, i) => ({ file: `src/module-${i}.test.ts`, size: 1000 + i })),
        }),
    },
  ];
  const rows = [];
  for (const call of calls) {
    const times = [];
    let bytes = 0;
    for (let round = 0; round < WARM_UP + ROUNDS; round++) {
      const started = performance.now();
      const response = call.body
        ? await server.request('POST', call.path, call.body(round))
        : await server.request('GET', call.path);
      const elapsed = performance.now() - started;
      if (response.status !== (call.status ?? 200)) problems.push(`${call.path} answered ${response.status}`);
      if (round >= WARM_UP) times.push(elapsed);
      bytes = response.body.length;
    }
    rows.push({ ...call, medianMs: median(times), maxMs: max(times), bytes });
    log(`    ${call.name}: ${ms(median(times))} (max ${ms(max(times))})`);
  }
  return rows;
}

async function analyze(url) {
  // pg comes with test-utils (the bench's own dependencies stay the workspace's packages).
  const pg = createRequire(new URL('../packages/test-utils/package.json', import.meta.url))('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** CPU time per 1,000 results stored. */
function perThousand(cpuMs, runs) {
  return ((cpuMs / (runs * RESULTS_PER_RUN)) * 1000).toFixed(1);
}

/** CPU time as a share of one core over the elapsed time. */
function pct(cpuMs, elapsedMs) {
  return `${Math.round((cpuMs / elapsedMs) * 100)} %`;
}

function directoryBytes(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
  }
  return total;
}

/** Each engine's figures against issue 30's targets: `{ name, measured, met }`. */
export function targets(out) {
  const rows = [];
  const at = `${int(out.runs)} runs, ${int(out.results)} results`;
  for (const e of out.engines) {
    const name = e.engine === 'sqlite' ? 'embedded SQLite' : 'PostgreSQL';
    rows.push({
      name: `server (${name}): ingest ≥ 50,000 results/s (${at}, ${CLIENTS} clients over HTTP)`,
      measured: `${int(e.ingest.resultsPerSecond)} results/s (${(e.ingest.ms / 1000).toFixed(1)} s)`,
      met: e.ingest.resultsPerSecond >= TARGETS.resultsPerSecond,
    });
    const slowest = e.rows.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
    rows.push({
      name: `server (${name}): every page and read-API call ≤ 100 ms median (${at})`,
      measured: `slowest ${ms(slowest.medianMs)} (${slowest.name}); ${e.rows.filter((r) => r.medianMs > TARGETS.pageMs).length} of ${e.rows.length} over`,
      met: slowest.medianMs <= TARGETS.pageMs,
    });
    const peak = Math.max(e.peakRssIngest, e.peakRssReads);
    rows.push({
      name: `server (${name}): RSS ≤ 300 MB (${at})`,
      measured: `peak ${mb(peak)} (ingest ${mb(e.peakRssIngest)}, reads ${mb(e.peakRssReads)}); after ingest ${mb(e.rssAfterIngest)}`,
      met: peak <= TARGETS.rssBytes,
    });
  }
  return rows;
}

/** The figure's section of results.md. */
export function section(out) {
  const md = [
    `## 10. The local server at scale: ${int(out.runs)} runs × ${RESULTS_PER_RUN} results = ${int(out.results)}`,
    '',
    `The server in its own process on a fresh data folder (embedded SQLite) or a fresh PostgreSQL cluster on the same machine (durable defaults: fsync on), reached through its Unix socket${process.env.BENCH_POSTGRES_TCP ? ' (here: TCP loopback, BENCH_POSTGRES_TCP)' : ''}; ${CLIENTS} clients over loopback HTTP with keep-alive, each creating a run and sending its ${RESULTS_PER_RUN} results in one request, each write with an Idempotency-Key as the reporters send it and answered after commit. Then the server is stopped, restarted on what it stored (restart: fork to listening), and each page and read-API call is fetched ${WARM_UP} times to warm up, then ${ROUNDS} times. RSS from /proc (VmHWM = peak). Disk: the data folder, or the cluster's data directory, less its size when empty. PostgreSQL: \`ANALYZE\` after the load (what autovacuum does on a database that grew over time).`,
    '',
  ];
  for (const line of out.skipped) md.push(`- ${line}`, '');
  if (out.engines.length === 0) return md;
  const engines = out.engines.map((e) => (e.engine === 'sqlite' ? 'Embedded SQLite' : 'PostgreSQL'));
  const row = (label, values) => `| ${label} | ${values.join(' | ')} |`;
  md.push(
    row('', engines),
    row(
      '---',
      engines.map(() => '---'),
    ),
    row(
      'Ingest',
      out.engines.map(
        (e) => `${int(e.ingest.resultsPerSecond)} results/s (${(e.ingest.ms / 1000).toFixed(1)} s)`,
      ),
    ),
    row(
      'Load average (1 min) at ingest start',
      out.engines.map((e) => e.load.toFixed(1)),
    ),
    row(
      'RSS peak during ingest / after',
      out.engines.map((e) => `${mb(e.peakRssIngest)} / ${mb(e.rssAfterIngest)}`),
    ),
    row(
      'RSS peak during reads / after',
      out.engines.map((e) => `${mb(e.peakRssReads)} / ${mb(e.rssAfterReads)}`),
    ),
    row(
      'Disk',
      out.engines.map((e) => mb(e.diskBytes)),
    ),
    row(
      'Restart on the stored data',
      out.engines.map((e) => ms(e.restartMs)),
    ),
  );
  for (let i = 0; i < out.engines[0].rows.length; i++) {
    const name = out.engines[0].rows[i].name;
    md.push(
      row(
        name,
        out.engines.map((e) => {
          const r = e.rows[i];
          return `${ms(r.medianMs)} (max ${ms(r.maxMs)}, ${mb(r.bytes)})`;
        }),
      ),
    );
  }
  md.push('', 'Page and read-API cells: median (slowest, size of the answer).', '');
  return md;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      engines: { type: 'string', default: 'sqlite,postgres' },
      clients: { type: 'string', default: '16' },
      'ingest-only': { type: 'boolean', default: false },
    },
  });
  const loadAtStart = os.loadavg();
  const out = await run({
    scale: Number(values.scale),
    engines: values.engines.split(','),
    clients: Number(values.clients),
    ingestOnly: values['ingest-only'],
    log: console.log,
  });
  console.log(
    `load average ${loadAtStart.map((l) => l.toFixed(1)).join('/')} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join('/')} at end`,
  );
  // --ingest-only: the ingest lines above are the whole answer (for comparing changes to writes).
  if (!values['ingest-only']) {
    console.log(section(out).join('\n'));
    for (const t of targets(out)) console.log(`${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.measured}`);
  }
  if (out.problems.length > 0) console.log('problems:', out.problems);
}
