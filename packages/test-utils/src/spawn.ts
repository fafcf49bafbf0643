import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Fixture projects shared by the adapters' tests; each runs under Vitest and under Jest. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const fixtures = {
  /** Every mapping case, with failures: both frameworks exit 1. */
  parity: path.join(FIXTURES_DIR, 'parity'),
  /** Two files, all passing apart from one skipped and one todo test. */
  passing: path.join(FIXTURES_DIR, 'passing'),
  /** Empty, 10 KB, multi-line, NUL and emoji names; NaN, negative, missing and infinite durations. */
  oddNames: path.join(FIXTURES_DIR, 'odd-names'),
  /** Fast files and one last file that waits until their results are on the server. */
  streaming: path.join(FIXTURES_DIR, 'streaming'),
  /** Vitest only: a passing test that leaves an unhandled error behind. */
  unhandledError: path.join(FIXTURES_DIR, 'unhandled-error'),
} as const;

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
}

export interface RunOutcome {
  code: number | null;
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
  ...options
}: RunOptions): Promise<RunOutcome> {
  const reporterArgs = withoutReporter ? ['--reporter=default'] : [];
  // Runs of one fixture overlap; Vitest's results cache is a file they would race on.
  return runNode(binOf('vitest'), ['run', '--no-cache', ...reporterArgs, ...args], options);
}

/** `jest` in `cwd`, as a real child process. */
export function runJest({ args = [], withoutReporter = false, ...options }: RunOptions): Promise<RunOutcome> {
  // Last: Jest's --reporters takes every following word as one more reporter.
  const reporterArgs = withoutReporter ? ['--reporters=default'] : [];
  return runNode(binOf('jest'), [...args, ...reporterArgs], options);
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
 * that runs these tests. Colours are off so output can be matched.
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
    'NODE_ENV',
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

/** The file a package's `bin` points to, run with this Node: no shell, no .bin shims. */
function binOf(packageName: 'vitest' | 'jest'): string {
  const manifestPath = requireFromHere.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const relative = typeof bin === 'string' ? bin : bin[packageName];
  if (!relative) throw new Error(`${packageName} has no bin named ${packageName}`);
  return path.join(path.dirname(manifestPath), relative);
}

function runNode(
  script: string,
  args: string[],
  options: Omit<RunOptions, 'args' | 'withoutReporter'>,
): Promise<RunOutcome> {
  const { cwd, env = {}, timeoutMs = RUN_TIMEOUT_MS } = options;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
      reject(
        new Error(
          `${path.basename(script)} ${args.join(' ')} timed out after ${timeoutMs} ms in ${cwd}\n${stdout}\n${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, durationMs: Math.round(performance.now() - started) });
    });
  });
}
