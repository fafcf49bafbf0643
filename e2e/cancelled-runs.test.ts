import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  closedPortUrl,
  FRAMEWORKS,
  fixtures,
  identities,
  readSpoolLines,
  reporterEnv,
  runCli,
  runJest,
  startTestServer,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

const FAST_RESULTS = ['fast > adds', 'fast > subtracts', 'fast > multiplies'].map((testCase) => ({
  testSuite: 'fast.test.js',
  testCase,
  status: 'passed',
}));

function fastOnly<T extends { testSuite: string }>(results: readonly T[]): T[] {
  return results.filter((result) => result.testSuite === 'fast.test.js');
}

/**
 * Sends `signal`, once, a second after `ready` holds for what the process printed so far:
 * by then the slow file runs (Playwright could miss a SIGINT that came while its worker
 * was still starting the next file, on a busy machine).
 */
function signalWhen(ready: (output: string) => boolean, signal: NodeJS.Signals) {
  return (child: ChildProcess) => {
    let output = '';
    let sent = false;
    const check = (chunk: Buffer) => {
      output += chunk.toString();
      if (sent || !ready(output)) return;
      sent = true;
      setTimeout(() => child.kill(signal), 1000);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
  };
}

/** Vitest and Jest print a line per file; Playwright one per test, in order. */
const fastFileDone = (output: string) =>
  /✓ fast\.test\.js|PASS \.?\/?fast\.test\.js|fast\.test\.js:\d+:\d+ › fast › multiplies/.test(output);

describe.each(FRAMEWORKS)('$name cancelled by a signal mid-run', ({ name, run, fixtures: own }) => {
  describe.each([
    [
      'down',
      async () => {
        const url = await closedPortUrl();
        // It comes back elsewhere: the spool names the old address.
        const comeBack = () => startTestServer({ apiKey: 'cancel-key-4711' });
        return { url, apiKey: 'cancel-key-4711', comeBack, replayArgs: ['--ignore-recorded-url'] };
      },
    ],
    [
      'slow',
      async () => {
        const server = await startTestServer({
          faults: (r) => (r.route === 'submitResults' ? { delayMs: 60_000 } : undefined),
        });
        const comeBack = async () => {
          server.server.setFaults(undefined);
          return server;
        };
        return { url: server.url, apiKey: server.apiKey, comeBack, replayArgs: [] as string[] };
      },
    ],
  ])('with the service %s', (_state, service) => {
    it.each(['SIGTERM', 'SIGINT'] as const)(
      'spools the results of finished files on %s and says so, ending as it would without the reporter',
      async (signal) => {
        const { url, apiKey, comeBack, replayArgs } = await service();
        const env = reporterEnv(
          { url, apiKey },
          { FIXTURE_REPORTER_OPTIONS: JSON.stringify({ flushInterval: 10, flushTimeout: 2000 }) },
        );
        const [withReporter, without] = await Promise.all([
          run({ cwd: own.cancelled, env, onSpawn: signalWhen(fastFileDone, signal) }),
          run({ cwd: own.cancelled, withoutReporter: true, onSpawn: signalWhen(fastFileDone, signal) }),
        ]);
        expect({ code: withReporter.code, signal: withReporter.signal }).toEqual({
          code: without.code,
          signal: without.signal,
        });
        // Vitest and Jest leave at once: the exit guard spools and says so. Playwright ends
        // its run first and calls the reporter's end, which spools at flushTimeout.
        // Vitest and Jest (and Playwright on SIGTERM) leave at once: the exit guard spools and
        // says so. Playwright ends its run on SIGINT and calls the reporter's end, which
        // spools at flushTimeout.
        const said =
          name === 'playwright' && signal === 'SIGINT'
            ? /^testrun: 0 results → run .*; [34] spooled to .*\.ndjson: send them with `npx testrun replay --dir /
            : new RegExp(
                `^testrun: the process received ${signal} before the run's results were delivered: [34] results spooled to .*\\.ndjson: send them with \`npx testrun replay --dir `,
              );
        expect(testrunLines(withReporter.stderr)).toContainEqual(expect.stringMatching(said));
        // The slow file's test may be stored too (Playwright reports a test it stopped);
        // the fast file's results must all be there.
        const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch');
        const spooledResults = spooled.flatMap((line) => line.results as { testSuite: string }[]);
        expect(identities(fastOnly(spooledResults as never[]))).toEqual(identities(FAST_RESULTS));
        expect(
          spooledResults.filter((result) => result.testSuite !== 'fast.test.js').length,
        ).toBeLessThanOrEqual(1);

        // Replayed once the service is back, each result is stored once, even one that the
        // slow service was still working on.
        const target = await comeBack();
        const replayed = await runCli(['replay', '--dir', env.TESTRUN_SPOOL_DIR!, ...replayArgs], {
          env: { PATH: process.env.PATH, TESTRUN_API_KEY: apiKey, TESTRUN_BASE_URL: target.url },
        });
        expect(replayed.stderr).toBe('');
        const stored = target.server.store.allResults();
        expect(identities(fastOnly(stored))).toEqual(identities(FAST_RESULTS));
        expect(stored).toHaveLength(spooledResults.length);
      },
    );
  });
});

describe('jest -i with a test that calls process.exit()', () => {
  it('keeps the results of the files before it, and a failed result of the run for the exit, stored once after replay', async () => {
    const server = await startTestServer();
    const env = reporterEnv(server, { FIXTURE_REPORTER_OPTIONS: JSON.stringify({ flushInterval: 60_000 }) });
    const cacheDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-jest-cache-'));
    const args = ['-i', `--cacheDirectory=${cacheDirectory}`];
    const [withReporter, without] = await Promise.all([
      runJest({ cwd: fixtures.exits, args, env }),
      runJest({
        cwd: fixtures.exits,
        args: ['-i', `--cacheDirectory=${cacheDirectory}-alone`],
        withoutReporter: true,
      }),
    ]);
    expect(withReporter.code).toBe(without.code);
    expect(testrunLines(withReporter.stderr)).toContainEqual(
      expect.stringMatching(
        /^testrun: the process exited \(code 1\) before the run's results were delivered: 4 results spooled/,
      ),
    );
    const replayed = await runCli(['replay', '--dir', env.TESTRUN_SPOOL_DIR!], {
      env: { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url },
    });
    expect(replayed.code).toBe(0);
    expect(identities(server.server.store.allResults())).toEqual(
      identities([
        ...['first', 'second', 'third'].map((t) => ({
          testSuite: 'passes.test.js',
          testCase: `passes > ${t}`,
          status: 'passed',
        })),
        {
          testSuite: '(run)',
          testCase: '(unhandled error) the process exited (code 1) before the run ended',
          status: 'failed',
        },
      ]),
    );
  });
});
