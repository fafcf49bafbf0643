// Figure 4, the measured process (run with --expose-gc, one per measurement): N results
// through RunReporter/RunSession into a server in ANOTHER process (BENCH_URL,
// BENCH_API_KEY), so only the reporter's memory is in this heap. Results are made per file
// as a framework makes them and dropped after being handed over. BENCH_MODE 'file' yields to
// the event loop after each file; 'tight' adds everything in one synchronous loop.
// With BENCH_LIVE=1 the peak is taken differently: garbage is collected before each sample,
// after every 10th file, so it is what the reporter really holds during the run.
// Prints one JSON line.
import v8 from 'node:v8';
import { createReporter, fileResults, nextTick, TESTS_PER_FILE } from './lib/results.mjs';

const TOTAL = Number(process.env.BENCH_TOTAL ?? 10_000);
const MODE = process.env.BENCH_MODE ?? 'file';
const LIVE = process.env.BENCH_LIVE === '1';
const server = { url: process.env.BENCH_URL, apiKey: process.env.BENCH_API_KEY };
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');

const heapUsed = () => v8.getHeapStatistics().used_heap_size;
let peak = 0;
const sample = () => {
  if (LIVE) globalThis.gc();
  peak = Math.max(peak, heapUsed());
};

// Everything loaded and one small run done first, so code and connection pools are in the baseline.
{
  const warm = createReporter(server);
  warm.reporter.startRun();
  warm.reporter.addResults(fileResults(0));
  await warm.reporter.endRun();
  warm.cleanup();
}
const { reporter, lines, cleanup } = createReporter(server);
for (let i = 0; i < 3; i += 1) globalThis.gc();
const baseline = heapUsed();
const baselineRss = process.memoryUsage().rss;
peak = baseline;
const sampler = LIVE ? undefined : setInterval(sample, 2);

reporter.startRun();
for (let file = 0, added = 0; added < TOTAL; file += 1, added += TESTS_PER_FILE) {
  reporter.addResults(fileResults(file, Math.min(TESTS_PER_FILE, TOTAL - added)));
  if (!LIVE || file % 10 === 9) sample();
  if (MODE === 'file') await nextTick();
}
sample();
// What the reporter still holds once every result is handed over, garbage collected.
globalThis.gc();
const retained = heapUsed() - baseline;
if (process.env.BENCH_SPACES) {
  for (const space of v8.getHeapSpaceStatistics()) {
    process.stderr.write(`${space.space_name} ${(space.space_used_size / 1048576).toFixed(2)} MB\n`);
  }
}
const summary = await reporter.endRun();
sample();
clearInterval(sampler);
cleanup();
const rss = process.memoryUsage().rss;
process.stdout.write(
  `${JSON.stringify({
    total: TOTAL,
    mode: MODE,
    baseline,
    peakGrowth: peak - baseline,
    retained,
    rssGrowth: rss - baselineRss,
    delivered: summary?.delivered,
    runId: summary?.runId,
    requests: summary?.requests,
    lines,
  })}\n`,
);
