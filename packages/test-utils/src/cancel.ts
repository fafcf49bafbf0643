import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI_BIN, replaySpool } from './cli.js';
import { reporterEnv as reporterEnvOf } from './environment.js';
import { captureDescendants } from './proc-stat.js';
import type { RunOutcome } from './process.js';
import type { RunOptions } from './run-framework.js';
import { startTestServer, type TestServer } from './server.js';
import { tempDir } from './temp-dir.js';

/** Vitest and Jest print a line per file; Playwright one per test, in order; Mocha's and node:test's spec reporters one per test. */
const fastFileDone = (output: string) =>
  /✓ fast\.test\.js|PASS \.?\/?fast\.test\.js|fast\.test\.js:\d+:\d+ › fast › multiplies|✔ multiplies/.test(
    output,
  );

/**
 * Sends `signal` once the fast file is done and the slow file's second test is waiting
 * (it writes `waitingFile`), so every framework has had the finished tests in hand.
 */
export function cancelWhenWaiting(waitingFile: string, signal: NodeJS.Signals) {
  return (child: ChildProcess) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    let workers: ReturnType<typeof captureDescendants> | undefined;
    const poll = setInterval(() => {
      if (!fastFileDone(output) || !fs.existsSync(waitingFile)) return;
      clearInterval(poll);
      // A moment for the framework to hear of the finished test (Vitest and Jest batch their worker events).
      setTimeout(() => {
        workers = captureDescendants(child.pid!);
        child.kill(signal);
      }, 300);
    }, 50);
    // Only the framework's own process gets the signal: its workers, the slow file's still
    // waiting, would outlive the test by minutes (the suite's leftover check found 32).
    child.on('exit', () => {
      clearInterval(poll);
      workers?.end();
    });
  };
}

/**
 * How each framework's own process ends on a signal, in this repo's versions, before any
 * handler of the tests' own: Vitest exits 130 on SIGINT and 143 on SIGTERM, Playwright 130 on
 * SIGINT, node --test ends a run cancelled by either with 1; a framework not named here for a
 * signal dies of it. Measured without the reporter (compat/matrix.test.ts compares every
 * supported version with and without it), and held by e2e/cancelled-runs.test.ts and, for
 * `testrun run` around the framework, e2e/testrun-run.test.ts.
 */
export const ENDS_ITSELF_ON: Partial<Record<string, Partial<Record<NodeJS.Signals, number>>>> = {
  vitest: { SIGINT: 130, SIGTERM: 143 },
  playwright: { SIGINT: 130 },
  'node-test': { SIGINT: 1, SIGTERM: 1 },
};

/**
 * What the runner alone exits with on `signal` sent to its whole group, as `testrun run` sends
 * it: ENDS_ITSELF_ON, else 128 + n. But Vitest's fork worker, which gets the signal too, may die
 * before Vitest's own handler runs: Vitest then says "Worker exited unexpectedly" and exits 1
 * (CI met that race of Vitest's once in the 20 cases of compat/testrun-run.test.ts).
 */
function aloneOn(name: string, signal: NodeJS.Signals, outcome: RunOutcome): number {
  if (name === 'vitest' && /Worker exited unexpectedly/.test(outcome.stderr)) return 1;
  return ENDS_ITSELF_ON[name]?.[signal] ?? 128 + os.constants.signals[signal];
}

/**
 * What a run of a framework's `cancelled` fixture needs to be cancelled as a CI job is:
 * `signal` to the framework's process once the finished tests are in its hands.
 */
export function cancelledRun(
  env: Record<string, string | undefined>,
  signal: NodeJS.Signals,
): Pick<RunOptions, 'env' | 'onSpawn'> {
  const waitingFile = path.join(tempDir('testrun-waiting-'), 'waiting');
  return {
    env: { ...env, FIXTURE_WAITING_FILE: waitingFile },
    onSpawn: cancelWhenWaiting(waitingFile, signal),
  };
}

/**
 * A service that never answers a batch of results, so that every result is still in the
 * reporter's hands when the signal comes; closed when the test ends.
 */
export function startServerThatHoldsResults(): Promise<TestServer> {
  return startTestServer({
    faults: (request) => (request.route === 'submitResults' ? { delayMs: 60_000 } : undefined),
  });
}

/** The reporter's options for a cancelled run: results sent at once, its end waits 2 s at most. */
export const CANCELLED_REPORTER_OPTIONS = JSON.stringify({ flushInterval: 10, flushTimeout: 2000 });

/** What `testrun run` around a framework's cancelled fixture left: its exit, the one run, the finished tests kept. */
export interface CancelledUnderTestrunRun {
  outcome: RunOutcome;
  /** What the runner alone exits with on the signal to its group (aloneOn). */
  alone: number;
  runs: { id: string; framework: string }[];
  end: { status: string } | undefined;
  /** `testrun replay` of what the reporter spooled, when it spooled anything. */
  replayed: Awaited<ReturnType<typeof replaySpool>> | undefined;
  /** What the service stored once the spool was replayed, without the test still waiting and the `(run)` result of an exit. */
  kept: { testSuite: string; testCase: string; status: string }[];
}

/** The finished tests of the `cancelled` fixtures: each must be stored once, live or by the replay of the spool. */
export const CANCELLED_FINISHED = [
  ...['fast > adds', 'fast > subtracts', 'fast > multiplies'].map((testCase) => ({
    testSuite: 'fast.test.js',
    testCase,
    status: 'passed',
  })),
  { testSuite: 'slow.test.js', testCase: 'slow > finishes before the job is cancelled', status: 'passed' },
];

/**
 * `testrun run -- <framework>` on its `cancelled` fixture, `signal` sent to `testrun run` once
 * the finished tests are in the runner's hands (e2e/testrun-run.test.ts, compat/testrun-run.test.ts).
 */
export async function cancelUnderTestrunRun(
  framework: {
    name: string;
    run: (options: RunOptions) => Promise<RunOutcome>;
    fixtures: { cancelled: string };
  },
  signal: NodeJS.Signals,
): Promise<CancelledUnderTestrunRun> {
  const server = await startTestServer();
  const env = reporterEnvOf(server, { FIXTURE_REPORTER_OPTIONS: CANCELLED_REPORTER_OPTIONS });
  const outcome = await framework.run({
    cwd: framework.fixtures.cancelled,
    ...cancelledRun(env, signal),
    wrap: [process.execPath, CLI_BIN, 'run', '--'],
  });
  // What the reporter spooled on its way out goes where a CI step would send it: a batch that
  // was in flight may have been stored already, and its idempotency key keeps it stored once.
  const replayed = fs.existsSync(env.TESTRUN_SPOOL_DIR!)
    ? await replaySpool(env.TESTRUN_SPOOL_DIR!, server)
    : undefined;
  const runs = await server.server.store.runs();
  const stored = runs[0] ? await server.server.store.results(runs[0].id) : [];
  const kept = stored.filter(
    (result) =>
      result.testCase !== 'slow > waits for the job to be cancelled' &&
      !/^\(unhandled error\) the process exited/.test(result.testCase),
  );
  return {
    outcome,
    alone: aloneOn(framework.name, signal, outcome),
    replayed,
    runs,
    end: runs[0] ? await server.server.store.endOf(runs[0].id) : undefined,
    kept,
  };
}
