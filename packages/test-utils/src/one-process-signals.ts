// A setup file of every test project (vitest.config.ts): process.kill(0) or a negative pid
// signals a whole process group, and a test's is vitest's and pnpm's own. A pid read from a
// file before its writer had put it there is Number('') = 0: a CI run ended so, every test
// with it (exit 143). Here that is an error in the one test that did it.
const killOneProcess = process.kill.bind(process);

process.kill = ((pid: number, signal?: NodeJS.Signals | number) => {
  if (!Number.isInteger(pid) || pid <= 0) {
    throw new Error(
      `process.kill(${pid}): tests signal one process, never a process group (pid 0 or below); was the pid read before it was written?`,
    );
  }
  return killOneProcess(pid, signal);
}) as typeof process.kill;
