// Figure 3, the measured process: 100,000 results through RunReporter → RunSession → HTTP
// into a local @testrun/server running in a child process (its CPU is measured apart).
// Prints one JSON line. `node bench/throughput-child.mjs`, or under `node --cpu-prof`
// (bench/profile.mjs) to profile core; BENCH_FLOOR=0 leaves out the JSON.stringify floor.
import { chunksOf, createReporter, fileReport, nextTick } from './lib/results.mjs';
import { startServer } from './lib/server.mjs';
import { median } from './lib/stats.mjs';

const TOTAL = Number(process.env.BENCH_TOTAL ?? 100_000);
const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);
const BATCH = 500;
const CONCURRENCY = 4;
// 'file': yield to the event loop after every file's 25 results (an adapter's rhythm);
// 'tight': all results in one synchronous loop.
const MODE = process.env.BENCH_MODE ?? 'file';
const FLOOR = process.env.BENCH_FLOOR !== '0';
// 'raw': finished results (`addResults`); 'report': per-file reports as the adapters hand
// them (`addFile`), so core also names every result: the whole per-result path.
const INPUT = process.env.BENCH_INPUT ?? 'raw';

// BENCH_SERVER_PROF=<dir>: the server process writes its own CPU profile there.
const serverProf = process.env.BENCH_SERVER_PROF;
const server = await startServer({
  execArgv: serverProf
    ? ['--cpu-prof', '--cpu-prof-dir', serverProf, '--cpu-prof-name', 'server.cpuprofile']
    : [],
});
const chunks = chunksOf(TOTAL);
const reports = INPUT === 'report' ? chunks.map((chunk, file) => fileReport(file, chunk.length)) : [];

/** The floor: JSON.stringify of the same request bodies (batches of 500), nothing else. */
function stringifyFloor() {
  // The generated results are clean already: the four fields, as core would send them.
  const all = chunks.flat().map(({ testSuite, testCase, status, duration }) => ({
    testSuite,
    testCase,
    status,
    duration,
  }));
  const batches = [];
  for (let i = 0; i < all.length; i += BATCH) batches.push(all.slice(i, i + BATCH));
  const times = [];
  let bytes = 0;
  for (let rep = 0; rep < 7; rep += 1) {
    const started = performance.now();
    bytes = 0;
    for (const batch of batches) bytes += JSON.stringify({ results: batch }).length;
    times.push(performance.now() - started);
  }
  return { ms: median(times), bytes };
}

async function once(total) {
  const { reporter, lines, cleanup } = createReporter(server, { batchSize: BATCH, concurrency: CONCURRENCY });
  const serverBefore = await server.stats();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  reporter.startRun();
  let added = 0;
  for (const [file, chunk] of chunks.entries()) {
    if (added >= total) break;
    if (INPUT === 'report') reporter.addFile(reports[file]);
    else reporter.addResults(chunk);
    added += chunk.length;
    if (MODE === 'file') await nextTick();
  }
  const addedAt = performance.now();
  const summary = await reporter.endRun();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const serverAfter = await server.stats([summary?.runId]);
  cleanup();
  const stored = serverAfter.runs.find((r) => r.id === summary?.runId);
  const requests = serverAfter.requests - serverBefore.requests;
  return {
    ms,
    addMs: addedAt - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    serverCpuMs: serverAfter.cpuMs - serverBefore.cpuMs,
    runId: summary?.runId,
    delivered: summary?.delivered,
    spooled: summary?.spooled,
    clientRequests: summary?.requests,
    serverRequests: requests,
    stored: stored?.results,
    distinct: stored?.distinct,
    notOk: serverAfter.notOk - serverBefore.notOk,
    serverErrors: serverAfter.serverErrors - serverBefore.serverErrors,
    lines,
  };
}

await once(10_000); // warm-up: JIT, connections, server
const floor = FLOOR ? stringifyFloor() : { ms: NaN, bytes: NaN };
const runs = [];
for (let rep = 0; rep < REPETITIONS; rep += 1) runs.push(await once(TOTAL));
const mid = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
await server.close();
const out = {
  total: TOTAL,
  mode: MODE,
  input: INPUT,
  floorMs: floor.ms,
  bytes: floor.bytes,
  ms: mid.ms,
  addMs: mid.addMs,
  cpuMs: mid.cpuMs,
  serverCpuMs: mid.serverCpuMs,
  allMs: runs.map((r) => r.ms),
  runs: runs.map(({ lines, ...rest }) => rest),
  problems: runs.flatMap((r) =>
    r.delivered === TOTAL && r.stored === TOTAL && r.distinct === TOTAL && r.notOk === 0
      ? []
      : [
          `delivered ${r.delivered}, stored ${r.stored} (${r.distinct} distinct), ${r.notOk} non-2xx: ${r.lines.join(' ')}`,
        ],
  ),
};
process.stdout.write(`${JSON.stringify(out)}\n`);
