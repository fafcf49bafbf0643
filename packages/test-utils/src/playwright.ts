import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'undici';
import { cleanEnv } from './environment.js';
import { FIXTURES_DIR } from './fixtures.js';
import { frameworkBin, type RunOutcome, runProcess } from './process.js';
import type { RunOptions } from './run-framework.js';

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
  /** A fast file, and a slow one still running when a test cancels the job. */
  cancelled: path.join(PLAYWRIGHT_FIXTURES_DIR, 'cancelled'),
  /** One test that drives a real Chromium (Debian's, at CHROMIUM_PATH). */
  browser: path.join(PLAYWRIGHT_FIXTURES_DIR, 'browser'),
  /** Two projects (one in one-project.config.mjs), for blob reports merged; a web server that fails, by env. */
  merged: path.join(PLAYWRIGHT_FIXTURES_DIR, 'merged'),
} as const;

/**
 * What `playwright test` exits with, without any reporter, when a test failed or an error
 * happened outside one (a worker's teardown, a globalSetup that throws, a file that fails to
 * load): 1. The e2e tests hold a run with the reporter to it instead of running each fixture
 * again without (a Playwright run costs ~1.5 CPU-s); compat/matrix.test.ts runs the parity
 * fixture both ways under every supported version and compares.
 */
export const PLAYWRIGHT_OWN_EXIT_CODE = 1;

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
  wrap,
}: RunOptions): Promise<RunOutcome> {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-playwright-output-'));
  const reporterArgs = withoutReporter ? ['--reporter=list'] : [];
  try {
    return await runProcess(
      nodePath ?? process.execPath,
      [bin, 'test', `--output=${outputDir}`, ...reporterArgs, ...args],
      { cwd, env: cleanEnv(env), timeoutMs, onSpawn, wrap },
    );
  } finally {
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
}

/** `playwright merge-reports [args] <dir>` in `cwd`, as a real child process: merges the blob reports in `dir`. */
export function mergePlaywrightReports({
  dir,
  args = [],
  cwd,
  env = {},
  timeoutMs,
}: Pick<RunOptions, 'args' | 'cwd' | 'env' | 'timeoutMs'> & { dir: string }): Promise<RunOutcome> {
  const bin = frameworkBin('@playwright/test', undefined, 'playwright');
  return runProcess(process.execPath, [bin, 'merge-reports', ...args, dir], {
    cwd,
    env: cleanEnv(env),
    timeoutMs,
  });
}

/** A `playwright test --ui` session, driven the way its web page drives it. */
export interface PlaywrightUiSession {
  /** Runs every test once, as the UI's "Run all" does; resolves with Playwright's status. */
  runAllTests(): Promise<string>;
  /** stdout and stderr of the session so far. */
  output(): string;
  /** Ends the session (SIGINT, as Ctrl-C) and resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * `playwright test --ui` in `cwd`, serving its UI on a free port instead of opening a
 * window. The UI page talks to the test server over a WebSocket (Playwright's internal
 * protocol: `initialize`, then `runTests`); this speaks it directly, with no browser.
 * Each `runTests` builds the configured reporters anew, as a click in the UI does.
 */
export async function openPlaywrightUi({ cwd, env = {} }: RunOptions): Promise<PlaywrightUiSession> {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-playwright-output-'));
  const bin = frameworkBin('@playwright/test', undefined, 'playwright');
  const args = [bin, 'test', '--ui-host=127.0.0.1', '--ui-port=0', `--output=${outputDir}`];
  // PWTEST_UNDER_TEST: Playwright's own switch that keeps it from opening the UI in a desktop browser.
  const child = spawn(process.execPath, args, {
    cwd,
    env: cleanEnv({ ...env, PWTEST_UNDER_TEST: '1' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: string) => {
    output += chunk;
  };
  child.stdout.setEncoding('utf8').on('data', append);
  child.stderr.setEncoding('utf8').on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
    fs.rmSync(outputDir, { recursive: true, force: true });
  };

  try {
    const started = Date.now();
    const listening = () => /Listening on (http:\/\/\S+)/.exec(output)?.[1];
    while (!listening()) {
      if (child.exitCode !== null || Date.now() - started > 30_000) {
        throw new Error(`playwright test --ui did not start:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const url = listening()!;
    // The root redirects to the UI page, under the session's secret path; the socket is beside it.
    const page = (await fetch(`${url}/`, { redirect: 'manual' })).headers.get('location') ?? '';
    const secret = /^\.\/([^/]+)\//.exec(page)?.[1];
    if (!secret) throw new Error(`unexpected UI page address ${JSON.stringify(page)}`);
    const socket = new WebSocket(`${url.replace('http:', 'ws:')}/${secret}/ws`);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    let lastId = 0;
    const answers = new Map<number, (message: { result?: { status?: string }; error?: string }) => void>();
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      if (message.id) answers.get(message.id)?.(message);
    };
    const call = (method: string, params: object) =>
      new Promise<{ result?: { status?: string }; error?: string }>((resolve) => {
        const id = ++lastId;
        answers.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      });
    // interceptStdio false: the reporters' lines go to the process's stderr, not over the socket.
    await call('initialize', { interceptStdio: false });
    return {
      runAllTests: async () => {
        const answer = await call('runTests', { locations: [] });
        if (answer.error) throw new Error(`runTests failed: ${answer.error}`);
        return answer.result?.status ?? 'unknown';
      },
      output: () => output,
      stop: async () => {
        socket.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
