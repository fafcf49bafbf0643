// Profiles figure 3: runs throughput-child.mjs under `node --cpu-prof` (its server runs in
// another process, not profiled) and prints the functions and packages with the most self
// time, and the inclusive time of core's main steps. `node bench/profile.mjs [file|tight]`;
// the .cpuprofile stays in bench/.generated/profiles/ for DevTools or speedscope.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inclusiveTimes, summarizeProfile } from './lib/cpuprofile.mjs';
import { lastJsonLine, runNodeChild } from './lib/node-child.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
export const profileDir = path.join(here, '.generated', 'profiles');

/** Core functions whose inclusive time says where a result's cost goes. */
const STEPS = [
  ['addResults', 'run-reporter.js'],
  ['toResult', 'normalize.js'],
  ['toName', 'normalize.js'],
  ['add', 'run-session.js'],
  ['send', 'run-session.js'],
  ['post', 'http-client.js'],
  ['push', 'overflow.js'],
  ['shift', 'overflow.js'],
];

export async function run({ mode = 'file', top = 15 } = {}) {
  fs.mkdirSync(profileDir, { recursive: true });
  const name = `throughput-${mode}.cpuprofile`;
  const output = await runNodeChild(
    [
      '--cpu-prof',
      '--cpu-prof-dir',
      profileDir,
      '--cpu-prof-name',
      name,
      path.join(here, 'throughput-child.mjs'),
    ],
    { BENCH_MODE: mode, BENCH_REPETITIONS: '3', BENCH_FLOOR: '0' },
    'profiled run',
  );
  const file = path.join(profileDir, name);
  return {
    file,
    run: lastJsonLine(output),
    ...summarizeProfile(file, { top }),
    steps: inclusiveTimes(file, STEPS),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run({ mode: process.argv[2] ?? 'file', top: 25 });
  console.log(`${result.file}\ntotal sampled (non-idle): ${result.totalMs} ms`);
  console.table(result.packages);
  console.table(result.functions);
  console.table(result.steps);
}
