import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  CUCUMBER_EACH_RESULTS,
  closedPortUrl,
  identities,
  readSpoolLines,
  replaySpool,
  reporterEnv,
  resultsIn,
  runCucumber as runCucumberWith,
  startTestServer,
  TEST_API_KEY,
  tempDir,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// What every adapter guarantees about delivery, held under real `cucumber-js` runs of the
// Cucumber fixture: results stream in while scenarios still run, a service that cannot be
// reached leaves them in the spool for `testrun replay`, and a cancelled job keeps what finished.

function runCucumber(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  onSpawn?: (child: ChildProcess) => void,
) {
  return runCucumberWith({ args, env, onSpawn });
}

const EACH = CUCUMBER_EACH_RESULTS;

type Stored = { testSuite: string; testCase: string; status: string };

/** The results of every batch in the spool files of `dir`. */
function spooled(dir: string): Stored[] {
  return readSpoolLines(dir)
    .filter((line) => line.type === 'batch')
    .flatMap((line) => line.results as Stored[]);
}

/** Sends `signal` once the waiting scenario has begun (it writes `waitingFile`), so the scenario before it has finished. */
function cancelWhenWaiting(waitingFile: string, signal: NodeJS.Signals) {
  return (child: ChildProcess) => {
    const poll = setInterval(() => {
      if (!fs.existsSync(waitingFile)) return;
      clearInterval(poll);
      setTimeout(() => child.kill(signal), 300);
    }, 50);
    child.on('exit', () => clearInterval(poll));
  };
}

// Each test has a server and a spool of its own, and mostly waits: they run side by side.
describe.concurrent('cucumber-js delivering results', () => {
  it('delivers finished scenarios while a later one still runs', async () => {
    const server = await startTestServer();
    try {
      // The streaming scenario passes only once the five earlier results are on the server.
      const outcome = await runCucumber(
        ['features/each.feature', 'slow/streaming.feature'],
        reporterEnv(server, { TESTRUN_TAGS: 'streaming' }),
      );
      expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);
      const [run] = await server.server.store.runs();
      expect(identities(await server.server.store.results(run!.id))).toEqual(
        identities([
          ...EACH,
          ...resultsIn('slow/streaming.feature', [
            ['streaming > sees the earlier results on the server', 'passed'],
          ]),
        ]),
      );
    } finally {
      await server.close();
    }
  });

  it('spools what a service it cannot reach did not take, for testrun replay to deliver once', async () => {
    const env = reporterEnv(
      { url: await closedPortUrl(), apiKey: TEST_API_KEY },
      { TESTRUN_FLUSH_TIMEOUT: '3000' },
    );
    const outcome = await runCucumber(['features/each.feature'], env);
    expect(outcome.code).toBe(0);
    expect(identities(spooled(env.TESTRUN_SPOOL_DIR!)), outcome.stderr).toEqual(identities(EACH));
    expect(testrunLines(outcome.stderr).at(-1)).toMatch(
      /5 spooled to .*: send them with `npx @testrun\/cli replay/,
    );

    const server = await startTestServer();
    try {
      const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, server, ['--ignore-recorded-url']);
      expect(replayed.stderr).toBe('');
      expect(identities(await server.server.store.allResults())).toEqual(identities(EACH));
    } finally {
      await server.close();
    }
  });

  it('fails a run that passed when results were not delivered and failOnError is set', async () => {
    const env = reporterEnv(
      { url: await closedPortUrl(), apiKey: TEST_API_KEY },
      { TESTRUN_FLUSH_TIMEOUT: '2000', FIXTURE_REPORTER_OPTIONS: JSON.stringify({ failOnError: true }) },
    );
    const outcome = await runCucumber(['features/each.feature'], env);
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(testrunLines(outcome.stderr).at(-1)).toMatch(
      /^testrun: failing the test run because failOnError is set: 5 of 5 results not delivered/,
    );
  });

  it('keeps the finished scenarios of a job cancelled with SIGTERM, and ends as Cucumber alone does', async () => {
    const server = await startTestServer();
    try {
      const waiting = () => path.join(tempDir('testrun-waiting-'), 'waiting');
      const withFile = waiting();
      const aloneFile = waiting();
      const env = reporterEnv(server, { FIXTURE_WAITING_FILE: withFile });
      const [withReporter, alone] = await Promise.all([
        runCucumber(['slow/cancelled.feature'], env, cancelWhenWaiting(withFile, 'SIGTERM')),
        runCucumber(
          ['-p', 'alone', 'slow/cancelled.feature'],
          { FIXTURE_WAITING_FILE: aloneFile },
          cancelWhenWaiting(aloneFile, 'SIGTERM'),
        ),
      ]);
      expect([withReporter.signal, withReporter.code]).toEqual([alone.signal, alone.code]);
      const finished = resultsIn('slow/cancelled.feature', [
        ['cancelled > finishes before the job is cancelled', 'passed'],
      ]);
      // Delivered at once, or spooled on the way out and replayed as a CI step would: either
      // way, exactly once (a batch in flight at the signal is both, and its key stores it once).
      if (fs.existsSync(env.TESTRUN_SPOOL_DIR!)) {
        const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, server);
        expect(replayed.stderr).toBe('');
      }
      expect(identities(await server.server.store.allResults()), withReporter.stderr).toEqual(
        identities(finished),
      );
    } finally {
      await server.close();
    }
  });
});
