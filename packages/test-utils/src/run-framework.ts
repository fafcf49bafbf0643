import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cleanEnv } from './environment.js';
import { FIXTURES_DIR } from './fixtures.js';
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
  /** A command the framework is run under, its program first: `node …/testrun.js run --` (CLI_BIN). */
  wrap?: readonly string[];
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

/**
 * `mocha` in `cwd`, as a real child process. Each Mocha fixture's .mocharc.cjs names the
 * reporter (and the spec files); without it, Mocha's spec reporter.
 */
export function runMocha({
  args = [],
  withoutReporter = false,
  bin = frameworkBin('mocha'),
  ...options
}: RunOptions): Promise<RunOutcome> {
  const reporterArgs = withoutReporter ? ['--reporter', 'spec'] : [];
  return runNode(bin, [...reporterArgs, ...args], options);
}

/**
 * The reporter module the node:test fixtures use: @testrun/node-test's createReporter with
 * the options of FIXTURE_REPORTER_OPTIONS (node --test has no way to pass a reporter options).
 */
export const NODE_TEST_REPORTER = path.join(FIXTURES_DIR, 'node-test', 'testrun-reporter.mjs');

/**
 * `node --test` in `cwd`, as a real child process, with the reporter and Node's spec
 * reporter both on stdout (the README's command line). FIXTURE_REPORTERS=2 in `env` names
 * the reporter twice. A fixture's `setup.cjs` is preloaded in the runner's main process,
 * as a framework's global setup would run there.
 */
export function runNodeTest({ args = [], withoutReporter = false, env = {}, ...options }: RunOptions) {
  const copies = Number(env.FIXTURE_REPORTERS ?? 1);
  const reporter = ['--test-reporter', NODE_TEST_REPORTER, '--test-reporter-destination', 'stdout'];
  const reporterArgs = [
    ...(withoutReporter ? [] : Array.from({ length: copies }, () => reporter).flat()),
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
  ];
  const setup = fs.existsSync(path.join(options.cwd, 'setup.cjs')) ? ['--require', './setup.cjs'] : [];
  const { cwd, nodePath, timeoutMs, onSpawn, wrap } = options;
  return runProcess(nodePath ?? process.execPath, [...setup, '--test', ...reporterArgs, ...args], {
    cwd,
    env: cleanEnv(env),
    timeoutMs,
    onSpawn,
    wrap,
  });
}

/**
 * Lines the reporters wrote (they all start with `testrun:`). A framework's terminal escapes
 * before one (Mocha's watch mode hides the cursor on stdout) are no part of it: the
 * reporters never write an escape character themselves.
 */
export function testrunLines(output: string): string[] {
  return output
    .split('\n')
    .map((line) => line.replace(/^(?:\u001b\[[0-9;?]*[a-zA-Z])+/, ''))
    .filter((line) => line.startsWith('testrun:'));
}

type SpawnOptions = Omit<RunOptions, 'args' | 'withoutReporter' | 'bin' | 'onSpawn'>;

function runNode(script: string, args: string[], options: SpawnOptions & Pick<RunOptions, 'onSpawn'>) {
  const { cwd, env = {}, nodePath, timeoutMs, onSpawn, wrap } = options;
  return runProcess(nodePath ?? process.execPath, [script, ...args], {
    cwd,
    env: cleanEnv(env),
    timeoutMs,
    onSpawn,
    wrap,
  });
}
