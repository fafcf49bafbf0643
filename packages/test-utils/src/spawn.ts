import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** Fixture projects shared by the adapters' tests; each runs under Vitest and under Jest. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const fixtures = {
  /** Every mapping case, with failures: both frameworks exit 1. */
  parity: path.join(FIXTURES_DIR, 'parity'),
  /** Two files, all passing apart from one skipped and one todo test. */
  passing: path.join(FIXTURES_DIR, 'passing'),
  /** Empty, 10 KB, multi-line, NUL and emoji names; NaN, negative, missing and infinite durations; a retried test. */
  oddNames: path.join(FIXTURES_DIR, 'odd-names'),
  /** Fast files and one last file that waits until their results are on the server. */
  streaming: path.join(FIXTURES_DIR, 'streaming'),
  /** A fast file, and a slow one still running when a test cancels the job. */
  cancelled: path.join(FIXTURES_DIR, 'cancelled'),
  /** Jest only: a passing file, then one whose test calls process.exit(). */
  exits: path.join(FIXTURES_DIR, 'exits'),
  /** Hand-written JUnit XML reports for `testrun upload`: pytest.xml, surefire-reports/TEST-*.xml. */
  junit: path.join(FIXTURES_DIR, 'junit'),
  /** Two packages with a src/index.test.js each, and a config for each layout: at the root, in scripts/, per package. */
  monorepo: path.join(FIXTURES_DIR, 'monorepo'),
  /** Vitest only: a file run as usual and type-checked, and a type-only file. */
  typecheck: path.join(FIXTURES_DIR, 'typecheck'),
  /** A passing file and one failure outside any test, picked with FIXTURE_CASE (see its cases.cjs). */
  outsideTests: path.join(FIXTURES_DIR, 'outside-tests'),
} as const;

/**
 * A fresh copy of `fixture` in a temp dir, for a test that edits its files. Its node_modules
 * links this repo's frameworks and reporters, so they resolve as they do from the original.
 */
export function copyFixture(fixture: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `testrun-${path.basename(fixture)}-`));
  fs.cpSync(fixture, dir, { recursive: true, filter: (source) => path.basename(source) !== 'node_modules' });
  for (const name of [
    'vitest',
    'jest',
    '@playwright/test',
    '@testrun/vitest',
    '@testrun/jest',
    '@testrun/playwright',
  ]) {
    const link = path.join(dir, 'node_modules', name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.dirname(requireFromHere.resolve(`${name}/package.json`)), link, 'dir');
  }
  return dir;
}

/** Fixture configs read reporter options from this variable, so a test can set them per run. */
export const REPORTER_OPTIONS_VAR = 'FIXTURE_REPORTER_OPTIONS';

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

export interface RunOutcome {
  code: number | null;
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** A run still going after this long is killed, and its promise rejects with its output. */
export const RUN_TIMEOUT_MS = 90_000;
/** For a hook that awaits runs: long enough for a stuck run to time out with its output first. */
export const AWAIT_RUNS_TIMEOUT_MS = RUN_TIMEOUT_MS + 15_000;
const requireFromHere = createRequire(import.meta.url);

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

/** What a reporter needs to talk to `server`, spooling into a fresh temp dir. */
export function reporterEnv(
  server: { url: string; apiKey: string },
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    TESTRUN_API_KEY: server.apiKey,
    TESTRUN_BASE_URL: server.url,
    TESTRUN_SPOOL_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-spool-')),
    ...extra,
  };
}

/** Lines the reporters wrote (they all start with `testrun:`). */
export function testrunLines(output: string): string[] {
  return output.split('\n').filter((line) => line.startsWith('testrun:'));
}

/**
 * The parent's environment without anything that would change how the child reports:
 * our own TESTRUN_* settings, CI detection (it adds tags), and the variables of the Vitest
 * that runs these tests. Colours are off so output can be matched. NODE_PATH, which pnpm's
 * bin shims point at its hidden hoisted packages, goes too: jest-cli's import-local looks
 * there, and with an old Jest hoisted (a Jest 24 install did it) runs that instead.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!INHERITED_NOISE.test(name)) env[name] = value;
  }
  Object.assign(env, { NO_COLOR: '1', FORCE_COLOR: '0' });
  for (const [name, value] of Object.entries(extra)) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

const INHERITED_NOISE = new RegExp(
  `^(?:${[
    'TESTRUN_.*',
    REPORTER_OPTIONS_VAR,
    'VITEST.*',
    'JEST_WORKER_ID',
    // Playwright's debug, watch and reporter switches.
    'PWDEBUG',
    'PWTEST_.*',
    'PW_TEST_.*',
    'NODE_ENV',
    'NODE_PATH',
    'CI',
    'CI_.*',
    'CONTINUOUS_INTEGRATION',
    'BUILD_.*',
    'GITHUB_.*',
    'GITLAB_.*',
    'CIRCLE.*',
    'TRAVIS.*',
    'BUILDKITE.*',
    'JENKINS_.*',
    'HUDSON_.*',
    'TEAMCITY_.*',
    'BITBUCKET_.*',
    'BITRISE.*',
    'DRONE.*',
    'APPVEYOR.*',
    'CODEBUILD_.*',
    'TF_BUILD',
    'SYSTEM_.*',
    'SEMAPHORE.*',
    'CIRRUS.*',
    'NETLIFY',
    'VERCEL.*',
    'WOODPECKER.*',
    'BAMBOO_.*',
  ].join('|')})$`,
);

/**
 * The file a package's `bin` of the same name (or `binName`) points to, as installed for `fromDir`
 * (this repo's install by default); the frameworks are run with Node directly from it:
 * no shell, no .bin shims. For the `node` package, that file is Node itself.
 */
export function frameworkBin(packageName: string, fromDir?: string, binName = packageName): string {
  const require = fromDir ? createRequire(path.join(fromDir, 'package.json')) : requireFromHere;
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const relative = typeof bin === 'string' ? bin : bin[binName];
  if (!relative) throw new Error(`${packageName} has no bin named ${binName}`);
  return path.join(path.dirname(manifestPath), relative);
}

type SpawnOptions = Omit<RunOptions, 'args' | 'withoutReporter' | 'bin' | 'onSpawn'>;

/** The one place a framework process starts: `script` run by Node in a clean environment. */
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

function runNode(script: string, args: string[], options: SpawnOptions & Pick<RunOptions, 'onSpawn'>) {
  const { cwd, env = {}, nodePath, timeoutMs, onSpawn } = options;
  return runProcess(nodePath ?? process.execPath, [script, ...args], {
    cwd,
    env: cleanEnv(env),
    timeoutMs,
    onSpawn,
  });
}

/**
 * Runs a program (no shell) to completion and collects its output; it is killed, and the
 * promise rejects with what it printed, when it is still running after `timeoutMs`.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  {
    cwd,
    env = process.env,
    timeoutMs = RUN_TIMEOUT_MS,
    onSpawn,
  }: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    onSpawn?: (child: ChildProcess) => void;
  } = {},
): Promise<RunOutcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      const what = `${path.basename(command)} ${args.join(' ')}`;
      reject(
        new Error(`${what} timed out after ${timeoutMs} ms in ${cwd ?? process.cwd()}\n${stdout}\n${stderr}`),
      );
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, durationMs: Math.round(performance.now() - started) });
    });
  });
}
