// Figure 3: runs throughput-child.mjs in a fresh process (its server in another one).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export function run({ mode = 'file', total = 100_000, repetitions = 3 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, 'throughput-child.mjs')], {
      env: {
        ...process.env,
        BENCH_MODE: mode,
        BENCH_TOTAL: String(total),
        BENCH_REPETITIONS: String(repetitions),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout.trim().split('\n').pop()))
        : reject(new Error(`throughput child exited ${code}`)),
    );
  });
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await run({ mode: process.argv[2] ?? 'file' }));
