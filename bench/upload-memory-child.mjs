// The measured process of upload-memory.mjs: `testrun upload <report>` through the CLI's
// own main() (what bin/testrun.js runs), with the heap sampled while it reads and sends.
// TESTRUN_API_KEY, TESTRUN_BASE_URL and TESTRUN_SPOOL_DIR come from the parent. With
// BENCH_LIVE=1 (and --expose-gc) it collects garbage every 100 ms and keeps the largest heap
// left after a collection: what the upload really holds, garbage not counted. Prints one
// JSON line.
import v8 from 'node:v8';
import { main } from '@testrun/cli';

const report = process.argv[2];
const heapUsed = () => v8.getHeapStatistics().used_heap_size;
const baseline = { heap: heapUsed(), rss: process.memoryUsage().rss };
let peakHeap = baseline.heap;
const sample = () => {
  const used = heapUsed();
  if (used > peakHeap) peakHeap = used;
};
const live = process.env.BENCH_LIVE === '1';
let peakLiveHeap = 0;
const sampler = live
  ? setInterval(() => {
      globalThis.gc();
      peakLiveHeap = Math.max(peakLiveHeap, heapUsed());
    }, 100)
  : setInterval(sample, 5);

const started = performance.now();
const code = await main(['upload', report]);
const ms = performance.now() - started;
sample();
clearInterval(sampler);
process.stdout.write(
  `${JSON.stringify({
    code,
    ms,
    baselineHeap: baseline.heap,
    baselineRss: baseline.rss,
    peakHeap,
    peakLiveHeap,
    // resourceUsage().maxRSS is the process's peak resident set, in kilobytes.
    peakRss: process.resourceUsage().maxRSS * 1024,
  })}\n`,
);
