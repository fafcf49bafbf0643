// A Vitest setup file that scripts/test-time.mjs adds (vitest.config.ts reads TESTRUN_FILE_CPU):
// the CPU time each test file cost, its worker's own and that of every process the file started
// and waited for (a framework run and what it started), from /proc/self/stat (Linux), one JSON
// line per file. A worker runs its files one after another, so the difference is the file's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const out = process.env.TESTRUN_FILE_CPU;
const TICKS_PER_SECOND = 100;

/** [own, children's]: utime + stime and cutime + cstime of this process in ms (fields 14 to 17 of /proc/self/stat). */
function cpuMs() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const ticks = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 15)
      .map(Number);
    const ms = (a, b) => (a + b) * (1000 / TICKS_PER_SECOND);
    return [ms(ticks[0], ticks[1]), ms(ticks[2], ticks[3])];
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
    const own = Math.round(ended[0] - started[0]);
    const children = Math.round(ended[1] - started[1]);
    fs.appendFileSync(
      out,
      `${JSON.stringify({ file, cpuMs: own + children, ownMs: own, childrenMs: children })}\n`,
    );
  });
}
