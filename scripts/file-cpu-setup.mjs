// A Vitest setup file that scripts/test-time.mjs adds (vitest.config.ts reads TESTRUN_FILE_CPU):
// the CPU time each test file cost, its worker's own and that of every process the file started
// and waited for (a framework run and what it started), from /proc/self/stat (Linux), one JSON
// line per file. A worker runs its files one after another, so the difference is the file's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const out = process.env.TESTRUN_FILE_CPU;
const TICKS_PER_SECOND = 100;

/** utime + stime + cutime + cstime of this process, in ms (fields 14 to 17 of /proc/self/stat). */
function cpuMs() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * (1000 / TICKS_PER_SECOND);
  } catch {
    return undefined;
  }
}

if (out) {
  let started;
  beforeAll(() => {
    started = cpuMs();
  });
  afterAll(() => {
    const ended = cpuMs();
    if (started === undefined || ended === undefined) return;
    const file = path.relative(process.cwd(), expect.getState().testPath ?? '');
    fs.appendFileSync(out, `${JSON.stringify({ file, cpuMs: Math.round(ended - started) })}\n`);
  });
}
