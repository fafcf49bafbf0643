import { procStat } from './proc-stat.js';

// A setup file of every test project (vitest.config.ts): process.kill(0) signals the caller's
// whole process group, vitest's and pnpm's own, and -1 every process it may signal. A pid read
// from a file before its writer had put it there is Number('') = 0: a CI run ended so, every
// test with it (exit 143). Here that is an error in the one test that did it. A negative pid
// naming another group (Playwright ends the browser it started detached so) goes through.

// This process's group (field 5), where Linux says it.
const ownGroup = procStat('self')?.[2];
const group = ownGroup === undefined ? undefined : Number(ownGroup);
// Once a process: the `unit` project runs its files in one process a worker (isolate: false),
// and each runs this file again.
const GUARDED = Symbol.for('testrun.one-process-signals');
const guarded = process as NodeJS.Process & { [GUARDED]?: true };

if (!guarded[GUARDED]) {
  guarded[GUARDED] = true;
  const killOneProcess = process.kill.bind(process);
  process.kill = ((pid: number, signal?: NodeJS.Signals | number) => {
    if (!Number.isInteger(pid) || pid === 0 || pid === -1 || (group !== undefined && pid === -group)) {
      throw new Error(
        `process.kill(${pid}): that signals this test's own process group (vitest's) or every process; was the pid read before it was written?`,
      );
    }
    return killOneProcess(pid, signal);
  }) as typeof process.kill;
}
