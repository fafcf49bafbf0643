// Figure 5: HTTP requests per run. With batchSize 500, a run of N results is one create-run
// request plus ceil(N / 500) result requests, counted by the server. Results are added
// per file (25 at a time) without pauses, so the 1 s flushInterval never splits a batch.
import { chunksOf, createReporter } from './lib/results.mjs';
import { startServer } from './lib/server.mjs';

export const SIZES = [1, 499, 500, 501, 5_000];
const BATCH = 500;

export async function run({ sizes = SIZES } = {}) {
  const server = await startServer();
  const rows = [];
  try {
    for (const n of sizes) {
      const before = await server.stats();
      const { reporter, lines, cleanup } = createReporter(server, { batchSize: BATCH });
      reporter.startRun();
      for (const chunk of chunksOf(n)) reporter.addResults(chunk);
      const summary = await reporter.endRun();
      cleanup();
      const after = await server.stats();
      const runId = summary?.runId;
      const createRequests = after.createRequests - before.createRequests;
      const resultRequests = after.requestsByRun[runId] ?? 0;
      const actual = after.requests - before.requests;
      const stored = after.runs.find((r) => r.id === runId)?.results ?? 0;
      const expected = Math.ceil(n / BATCH) + 1;
      rows.push({
        n,
        expected,
        actual,
        createRequests,
        resultRequests,
        clientCount: summary?.requests,
        stored,
        notOk: after.notOk - before.notOk,
        ok:
          actual === expected &&
          summary?.requests === expected &&
          stored === n &&
          after.notOk === before.notOk,
        note: lines.join(' ').trim(),
      });
    }
    return { rows };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table((await run()).rows);
