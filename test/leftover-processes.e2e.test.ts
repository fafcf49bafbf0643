import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { expect, it, onTestFinished } from 'vitest';
import { endLeftovers, MARK, processesMarked } from '../packages/test-utils/src/leftover-processes.js';

// The suite's own check that nothing it started outlives it (vitest.config.ts's globalSetup):
// here on processes marked for this test alone, so the suite's own mark is left alone.

function sleeper(mark: string, seconds: number) {
  const child = spawn('sleep', [String(seconds)], {
    env: { ...process.env, [MARK]: mark },
    stdio: 'ignore',
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

it('finds a process carrying the mark, ends it after the grace, and names it', async () => {
  const mark = randomUUID();
  const child = sleeper(mark, 300);
  await once(child, 'spawn');
  expect(processesMarked(mark)).toEqual([{ pid: child.pid, command: 'sleep 300', cwd: process.cwd() }]);
  expect(processesMarked(randomUUID())).toEqual([]);

  const exited = once(child, 'exit');
  expect(endLeftovers(mark, 200).map(({ pid }) => pid)).toEqual([child.pid]);
  expect(await exited).toEqual([null, 'SIGKILL']);
});

it('lets a process that ends within the grace go, unnamed', async () => {
  const mark = randomUUID();
  const child = sleeper(mark, 0.3);
  await once(child, 'spawn');
  // endLeftovers blocks this thread while it waits: the child's end is read from /proc.
  expect(endLeftovers(mark, 10_000)).toEqual([]);
  expect(processesMarked(mark)).toEqual([]);
});
