import { spawn } from 'node:child_process';
import os from 'node:os';

// `testrun run`'s child: the command, run as a shell runs a job
// (docs/design/testrun-run.md#signals-as-a-shells-job-control). It gets stdin, stdout and stderr as
// they are, and a process group of its own, so that a signal testrun receives reaches the command
// and everything it started (npx, the runner, its workers), once, as a shell's job control sends it
// to the job. testrun never decides for the command: a second Ctrl-C is forwarded again, a command
// that ignores SIGTERM is waited for, as a shell waits.
//
// Why not a library: foreground-child (isaacs; c8, tap) forwards signals to the child's pid
// only, in testrun's own group, where a Ctrl-C from the terminal reaches the command twice
// (the terminal's, then the forwarded one: Playwright takes a second one as "force quit"); it
// also dies by the child's signal rather than exiting 128 + n as a shell reports it, and
// starts a watchdog process per run. execa forwards none. What is left here is a spawn with
// `detached` (its own session and group) and a listener per signal.

/** The signals testrun forwards to the command's group; the first four are a cancel. */
export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGWINCH'] as const;
const CANCELS: ReadonlySet<NodeJS.Signals> = new Set(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']);

/** How the command ended. */
export interface CommandEnd {
  /** What a shell reports: the exit code, 128 + n when signal n ended it, 127 not found, 126 not runnable. */
  exitCode: number;
  /** The signal that ended the command, when one did. */
  signal: NodeJS.Signals | undefined;
  /** The first cancel (SIGINT, SIGTERM, SIGHUP, SIGQUIT) testrun received while the command ran. */
  cancelledBy: NodeJS.Signals | undefined;
  /** Why the command could not be started, when it could not: `npx: command not found`. */
  notStarted: string | undefined;
}

/** Runs `program` with `args` in `env` as a shell runs a job, and resolves when it has ended. */
export function runCommand(
  program: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<CommandEnd> {
  return new Promise((resolve) => {
    let cancelledBy: NodeJS.Signals | undefined;
    const child = spawn(program, args, { stdio: 'inherit', env, detached: true });
    const forward = (signal: NodeJS.Signals) => {
      if (CANCELS.has(signal)) cancelledBy ??= signal;
      try {
        // The whole group: a `sh -c`, npx and the runner it starts, the runner's workers.
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group has gone already: the command is ending.
      }
    };
    for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
    const stopForwarding = () => {
      for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      // Not started: spawn's error comes instead of an exit.
      if (child.pid !== undefined) return;
      stopForwarding();
      const notFound = error.code === 'ENOENT';
      resolve({
        exitCode: notFound ? 127 : 126,
        signal: undefined,
        cancelledBy,
        notStarted: `${program}: ${notFound ? 'command not found' : `cannot run it (${error.code ?? error.message})`}`,
      });
    });
    child.once('exit', (code, signal) => {
      stopForwarding();
      resolve({
        exitCode: code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0),
        signal: signal ?? undefined,
        cancelledBy,
        notStarted: undefined,
      });
    });
  });
}
