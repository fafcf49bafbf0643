import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { descendantsOf, followDescendants, procStat } from '../src/proc-stat.js';

/** Running, not a zombie waiting for an init that may never reap it. */
const alive = (pid: number) => {
  const state = procStat(pid)?.[0];
  return state !== undefined && state !== 'Z';
};

it('ends what a process started and left running when it exited, found while it ran', async () => {
  // The shell starts a long sleep in the background, says its pid, and exits a second later:
  // the sleep is orphaned, as a browser its launcher could not connect to is.
  const shell = spawn('sh', ['-c', 'sleep 30 & echo $!; sleep 1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const followed = followDescendants(shell.pid!, 100);
  const [line] = (await once(shell.stdout!, 'data')) as [Buffer];
  const orphan = Number(String(line).trim());
  await once(shell, 'exit');
  expect(descendantsOf(shell.pid!)).toEqual([]);
  expect(alive(orphan)).toBe(true);

  followed.end();
  await expect.poll(() => alive(orphan)).toBe(false);
});
