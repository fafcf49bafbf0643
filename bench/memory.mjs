// Figure 4: heap growth of the reporting process for 10,000 and 100,000 results, each in a
// fresh `node --expose-gc` process (memory-child.mjs), the server in another process. Each
// repetition runs twice: once as a user has it (garbage included in the peak), once collecting
// garbage as it goes (the live peak: what the reporter holds at its fullest).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastJsonLine, runNodeChild } from './lib/node-child.mjs';
import { startServer } from './lib/server.mjs';
import { median } from './lib/stats.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
export const SIZES = [10_000, 100_000];
export const MODES = ['file', 'tight'];

async function measure(server, total, mode, live) {
  const env = {
    BENCH_LIVE: live ? '1' : '0',
    BENCH_URL: server.url,
    BENCH_API_KEY: server.apiKey,
    BENCH_TOTAL: String(total),
    BENCH_MODE: mode,
  };
  return lastJsonLine(
    await runNodeChild(['--expose-gc', path.join(here, 'memory-child.mjs')], env, 'memory child'),
  );
}

export async function run({ repetitions = 3, log = console.log } = {}) {
  const server = await startServer();
  const rows = [];
  const problems = [];
  try {
    for (const mode of MODES) {
      for (const total of SIZES) {
        const samples = [];
        const liveSamples = [];
        for (let rep = 0; rep < repetitions; rep += 1) {
          for (const live of [false, true]) {
            const before = await server.stats();
            const result = await measure(server, total, mode, live);
            const after = await server.stats();
            const stored = after.runs.find((r) => r.id === result.runId);
            if (result.delivered !== total || stored?.results !== total || after.notOk !== before.notOk) {
              problems.push(
                `memory ${mode} ${total}${live ? ' (live)' : ''}: delivered ${result.delivered}, stored ${stored?.results}; ${result.lines.join(' ')}`,
              );
            }
            (live ? liveSamples : samples).push(result);
          }
        }
        const row = {
          mode,
          total,
          peakGrowth: median(samples.map((s) => s.peakGrowth)),
          peakLiveGrowth: median(liveSamples.map((s) => s.peakGrowth)),
          retained: median(samples.map((s) => s.retained)),
          rssGrowth: median(samples.map((s) => s.rssGrowth)),
          requests: median(samples.map((s) => s.requests)),
        };
        log(
          `  memory ${mode} ${total}: peak +${(row.peakGrowth / 1048576).toFixed(1)} MB, live peak +${(row.peakLiveGrowth / 1048576).toFixed(1)} MB, retained +${(row.retained / 1048576).toFixed(1)} MB`,
        );
        rows.push(row);
      }
    }
    const stats = await server.stats();
    return { rows, problems, serverErrors: stats.serverErrors };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outcome = await run();
  console.table(outcome.rows);
  for (const problem of outcome.problems) console.log('PROBLEM:', problem);
}
