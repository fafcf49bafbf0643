import type { ChildProcess } from 'node:child_process';
import { cleanEnv } from './environment.js';
import { frameworkBin, type RunOutcome, runProcess } from './process.js';

export interface RunOptions {
  cwd: string;
  /** Extra CLI arguments. */
  args?: readonly string[];
  /** Run with the framework's default reporter only, overriding the fixture's config. */
  withoutReporter?: boolean;
  /** Added to the clean environment; `undefined` values are left out. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** The framework's bin script, when another install of it is to run (see frameworkBin); this repo's by default. */
  bin?: string;
  /** The Node binary that runs the framework; this process's Node by default. */
  nodePath?: string;
  /** Called with the process once started, e.g. to send it a signal. */
  onSpawn?: (child: ChildProcess) => void;
}

/** `vitest run` in `cwd`, as a real child process. */
export function runVitest({
  args = [],
  withoutReporter = false,
  bin = frameworkBin('vitest'),
  ...options
}: RunOptions): Promise<RunOutcome> {
  const reporterArgs = withoutReporter ? ['--reporter=default'] : [];
  // Runs of one fixture overlap; Vitest's results cache is a file they would race on.
  return runNode(bin, ['run', '--no-cache', ...reporterArgs, ...args], options);
}

/** `jest` in `cwd`, as a real child process. */
export function runJest({
  args = [],
  withoutReporter = false,
  bin = frameworkBin('jest'),
  ...options
}: RunOptions): Promise<RunOutcome> {
  // Last: Jest's --reporters takes every following word as one more reporter.
  const reporterArgs = withoutReporter ? ['--reporters=default'] : [];
  return runNode(bin, [...args, ...reporterArgs], options);
}

/** Lines the reporters wrote (they all start with `testrun:`). */
export function testrunLines(output: string): string[] {
  return output.split('\n').filter((line) => line.startsWith('testrun:'));
}

type SpawnOptions = Omit<RunOptions, 'args' | 'withoutReporter' | 'bin' | 'onSpawn'>;

function runNode(script: string, args: string[], options: SpawnOptions & Pick<RunOptions, 'onSpawn'>) {
  const { cwd, env = {}, nodePath, timeoutMs, onSpawn } = options;
  return runProcess(nodePath ?? process.execPath, [script, ...args], {
    cwd,
    env: cleanEnv(env),
    timeoutMs,
    onSpawn,
  });
}
