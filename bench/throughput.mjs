// Figure 3: runs throughput-child.mjs in a fresh process (its server in another one).

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastJsonLine, runNodeChild } from './lib/node-child.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

/** `input`: 'raw' (finished results) or 'report' (per-file reports, as the adapters hand them). */
export async function run({ mode = 'file', input = 'raw', total = 100_000, repetitions = 3 } = {}) {
  const env = {
    BENCH_MODE: mode,
    BENCH_INPUT: input,
    BENCH_FLOOR: input === 'raw' ? '1' : '0',
    BENCH_TOTAL: String(total),
    BENCH_REPETITIONS: String(repetitions),
  };
  return lastJsonLine(await runNodeChild([path.join(here, 'throughput-child.mjs')], env, 'throughput child'));
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await run({ mode: process.argv[2] ?? 'file', input: process.argv[3] ?? 'raw' }));
