// Figure 2: end-of-run flush latency. Core is driven in-process as an adapter drives it:
// 5,000 results in 200 per-file chunks of 25, a few ms apart; then `await endRun()` is
// timed: that is the time from the last result handed to core to the end hook finishing.
import { chunksOf, createReporter, sleep } from './lib/results.mjs';
import { startServer } from './lib/server.mjs';
import { max, median, min } from './lib/stats.mjs';

const TOTAL = 5_000;
// ~5 ms per file: a run of ~1.1 s, so the 1 s flushInterval fires once mid-run and the
// batch boundaries shift, leaving a partial batch for endRun to send, as in a real run.
const GAP_MS = 5;

export async function run({ repetitions = 15, log = console.log } = {}) {
  const server = await startServer();
  const chunks = chunksOf(TOTAL);
  const latencies = [];
  const drains = [];
  const requests = [];
  const problems = [];
  try {
    for (let rep = 0; rep <= repetitions; rep += 1) {
      const { reporter, lines, cleanup } = createReporter(server);
      reporter.startRun();
      for (const chunk of chunks) {
        reporter.addResults(chunk);
        await sleep(GAP_MS);
      }
      const started = performance.now();
      const summary = await reporter.endRun();
      const latency = performance.now() - started;
      cleanup();
      const stats = await server.stats([summary?.runId]);
      const stored = stats.runs.find((r) => r.id === summary?.runId);
      if (!summary || summary.delivered !== TOTAL || stored?.results !== TOTAL || stored.distinct !== TOTAL) {
        problems.push(
          `flush rep ${rep}: delivered ${summary?.delivered}, stored ${stored?.results}; ${lines.join(' ')}`,
        );
      }
      if (rep === 0) continue; // warm-up
      latencies.push(latency);
      drains.push(summary?.durationMs ?? NaN);
      requests.push(summary?.requests ?? NaN);
    }
    log(`  flush latency: ${latencies.map((l) => l.toFixed(1)).join(', ')} ms`);
    const stats = await server.stats();
    return {
      repetitions,
      medianMs: median(latencies),
      minMs: min(latencies),
      maxMs: max(latencies),
      medianDurationMs: median(drains),
      medianRequests: median(requests),
      serverErrors: stats.serverErrors,
      problems,
    };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
