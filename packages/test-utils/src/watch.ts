import { type ChildProcessByStdio, spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { cleanEnv } from './environment.js';
import { frameworkBin } from './process.js';
import { NODE_TEST_REPORTER, type RunOptions } from './run-framework.js';

/** A framework process in watch mode, which runs until it is stopped. */
export interface WatchProcess {
  /** stdout and stderr so far, interleaved as they arrived. */
  output(): string;
  /**
   * Resolves once `pattern` has matched `count` times in the output. Rejects with the
   * output when the process exits first or `timeoutMs` passes.
   */
  waitForOutput(pattern: RegExp, count?: number, timeoutMs?: number): Promise<void>;
  /**
   * Makes `change` (a file edit) until `pattern` has matched `count` times. Jest drops a
   * change that arrives while it is still finishing a run, so one edit is not always enough.
   */
  rerunAfter(change: () => void, pattern: RegExp, count: number): Promise<void>;
  /** Ends the process (SIGTERM, SIGKILL after 5 s) and resolves once it has exited; safe to call twice. */
  stop(): Promise<void>;
}

/** `vitest --watch` in `cwd`: reruns the tests of each changed file until stopped. */
export function watchVitest({
  args = [],
  bin = frameworkBin('vitest'),
  ...options
}: RunOptions): WatchProcess {
  // --watch explicitly: without a TTY, or with CI set, Vitest would run once and exit.
  return startWatching(bin, ['--watch', '--no-cache', ...args], options);
}

/** `jest --watchAll` in `cwd`: reruns every test on each change until stopped (needs no git). */
export function watchJest({ args = [], bin = frameworkBin('jest'), ...options }: RunOptions): WatchProcess {
  return startWatching(bin, ['--watchAll', ...args], options);
}

/** `mocha --watch` in `cwd`: reruns every spec file on each change until stopped. */
export function watchMocha({ args = [], bin = frameworkBin('mocha'), ...options }: RunOptions): WatchProcess {
  return startWatching(bin, ['--watch', ...args], options);
}

/** `node --test --watch` in `cwd` with the reporter (as runNodeTest runs it): reruns what changed until stopped. */
export function watchNodeTest({ args = [], ...options }: RunOptions): WatchProcess {
  const reporter = ['--test-reporter', NODE_TEST_REPORTER, '--test-reporter-destination', 'stdout'];
  const spec = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
  return startWatching('--test', ['--watch', ...reporter, ...spec, ...args], options);
}

type SpawnOptions = Omit<RunOptions, 'args' | 'withoutReporter' | 'bin' | 'onSpawn'>;

/** `script` (or a flag such as `--test`) run by Node in a clean environment, for a process that runs until it is stopped. */
function spawnNode(
  script: string,
  args: string[],
  { cwd, env = {}, nodePath }: SpawnOptions,
): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(nodePath ?? process.execPath, [script, ...args], {
    cwd,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function startWatching(script: string, args: string[], options: SpawnOptions): WatchProcess {
  const child = spawnNode(script, args, options);
  let output = '';
  const append = (chunk: string) => {
    output += chunk;
  };
  child.stdout.setEncoding('utf8').on('data', append);
  child.stderr.setEncoding('utf8').on('data', append);
  // 'close' comes after the last output; 'exit' may come before it.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;

  const waitForOutput = async (pattern: RegExp, count = 1, timeoutMs = 60_000) => {
    const everywhere = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
    const seen = () => (output.match(everywhere)?.length ?? 0) >= count;
    const deadline = Date.now() + timeoutMs;
    let hasClosed = false;
    void closed.then(() => {
      hasClosed = true;
    });
    while (!seen()) {
      if (hasClosed || Date.now() > deadline) {
        const why = hasClosed ? `exited (${child.exitCode ?? child.signalCode})` : `ran ${timeoutMs} ms`;
        throw new Error(
          `${path.basename(script)} ${args.join(' ')} ${why} without printing ${pattern} ${count}×:\n${output}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const rerunAfter = async (change: () => void, pattern: RegExp, count: number) => {
    for (let attempt = 1; ; attempt++) {
      change();
      try {
        return await waitForOutput(pattern, count, 10_000);
      } catch (error) {
        if (attempt === 3 || child.exitCode !== null) throw error;
      }
    }
  };

  return {
    output: () => output,
    waitForOutput,
    rerunAfter,
    stop: () => {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killer);
      })();
      return stopping;
    },
  };
}
