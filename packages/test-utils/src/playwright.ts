import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cleanEnv,
  FIXTURES_DIR,
  frameworkBin,
  type RunOptions,
  type RunOutcome,
  runProcess,
} from './spawn.js';

const PLAYWRIGHT_FIXTURES_DIR = path.join(FIXTURES_DIR, 'playwright');

/**
 * Fixture projects for Playwright Test. Its tests import `test` from @playwright/test
 * rather than using globals, so it has fixtures of its own; those named like a shared
 * fixture hold the same tests and store the same results (see FRAMEWORKS).
 */
export const playwrightFixtures = {
  /** The shared `passing` fixture's tests (todo is fixme): all pass, apart from two skipped. */
  passing: path.join(PLAYWRIGHT_FIXTURES_DIR, 'passing'),
  /** Fast files and one last file that waits until their results are on the server. */
  streaming: path.join(PLAYWRIGHT_FIXTURES_DIR, 'streaming'),
  /** Odd names and durations, and a test that passes on its second attempt. */
  oddNames: path.join(PLAYWRIGHT_FIXTURES_DIR, 'odd-names'),
  /** The shared parity fixture's tests, where Playwright has the concept (PLAYWRIGHT_PARITY_RESULTS). */
  parity: path.join(PLAYWRIGHT_FIXTURES_DIR, 'parity'),
  /** Two spec files that throw while they load, which stops the run, beside one that would pass. */
  loadErrors: path.join(PLAYWRIGHT_FIXTURES_DIR, 'load-errors'),
  /** Two projects, retries, a flaky test, skipped and failing tests: the README's Playwright example. */
  shop: path.join(PLAYWRIGHT_FIXTURES_DIR, 'shop'),
  /** Errors outside any test: a globalSetup that throws, a worker error in a file (chosen by env). */
  errors: path.join(PLAYWRIGHT_FIXTURES_DIR, 'errors'),
  /** Slow tests, for runs stopped by --max-failures, the global timeout or SIGINT. */
  interrupted: path.join(PLAYWRIGHT_FIXTURES_DIR, 'interrupted'),
  /** One test that drives a real Chromium (Debian's, at CHROMIUM_PATH). */
  browser: path.join(PLAYWRIGHT_FIXTURES_DIR, 'browser'),
} as const;

export interface PlaywrightRunOptions extends RunOptions {
  /** Called with the child process id as soon as it starts, to signal it. */
  onSpawn?: (pid: number) => void;
}

/**
 * `playwright test` in `cwd`, as a real child process. Its output folder (test-results)
 * is a fresh temp dir per run: Playwright empties it when a run starts, and runs of one
 * fixture overlap.
 */
export async function runPlaywright({
  args = [],
  withoutReporter = false,
  bin = frameworkBin('@playwright/test', undefined, 'playwright'),
  cwd,
  env = {},
  nodePath,
  timeoutMs,
  onSpawn,
}: PlaywrightRunOptions): Promise<RunOutcome> {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-playwright-output-'));
  const reporterArgs = withoutReporter ? ['--reporter=list'] : [];
  try {
    return await runProcess(
      nodePath ?? process.execPath,
      [bin, 'test', `--output=${outputDir}`, ...reporterArgs, ...args],
      { cwd, env: cleanEnv(env), timeoutMs, onSpawn },
    );
  } finally {
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
}
