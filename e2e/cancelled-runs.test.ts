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
  testrunLines,
  useTestServers,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

const start = useTestServers();

const FAST_RESULTS = ['fast > adds', 'fast > subtracts', 'fast > multiplies'].map((testCase) => ({
  testSuite: 'fast.test.js',
  testCase,
  status: 'passed',
}));

/** Sends `signal`, once, as soon as `ready` holds for what the process printed so far. */
function signalWhen(ready: (output: string) => boolean, signal: NodeJS.Signals) {
  return (child: ChildProcess) => {
    let output = '';
    let sent = false;
    const check = (chunk: Buffer) => {
      output += chunk.toString();
      if (sent || !ready(output)) return;
      sent = true;
      child.kill(signal);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
  };
}

const fastFileDone = (output: string) => /✓ fast\.test\.js|PASS \.?\/?fast\.test\.js/.test(output);

describe.each(FRAMEWORKS)('$name cancelled by a signal mid-run', ({ name, run }) => {
  describe.each([
    [
      'down',
      async () => {
        const url = await closedPortUrl();
        // It comes back elsewhere: the spool names the old address.
        const comeBack = () => start({ apiKey: 'cancel-key-4711' });
        return { url, apiKey: 'cancel-key-4711', comeBack, replayArgs: ['--ignore-recorded-url'] };
      },
    ],
    [
      'slow',
      async () => {
        const server = await start({
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
          { FIXTURE_REPORTER_OPTIONS: JSON.stringify({ flushInterval: 10 }) },
        );
        const [withReporter, without] = await Promise.all([
          run({ cwd: fixtures.cancelled, env, onSpawn: signalWhen(fastFileDone, signal) }),
          run({ cwd: fixtures.cancelled, withoutReporter: true, onSpawn: signalWhen(fastFileDone, signal) }),
        ]);
        expect({ code: withReporter.code, signal: withReporter.signal }).toEqual({
          code: without.code,
          signal: without.signal,
        });
        const lines = testrunLines(withReporter.stderr);
        expect(lines).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^testrun: the process received ${signal} before the run's results were delivered: \\d+ results spooled to .*\\.ndjson: send them with \`npx testrun replay --dir `,
            ),
          ),
        );
        const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch');
        expect(identities(spooled.flatMap((line) => line.results as never[]))).toEqual(
          identities(FAST_RESULTS),
        );

        // Replayed once the service is back, each result is stored once, even one that the
        // slow service was still working on.
        const target = await comeBack();
        const replayed = await runCli(['replay', '--dir', env.TESTRUN_SPOOL_DIR!, ...replayArgs], {
          env: { PATH: process.env.PATH, TESTRUN_API_KEY: apiKey, TESTRUN_BASE_URL: target.url },
        });
        expect(replayed.stderr).toBe('');
        expect(identities(target.server.store.allResults())).toEqual(identities(FAST_RESULTS));
        expect(withReporter.stdout + withReporter.stderr).toContain(name === 'vitest' ? 'RUN' : 'PASS');
      },
    );
  });
});

describe('jest -i with a test that calls process.exit()', () => {
  it('keeps the results of the files before it: delivered or spooled, stored once after replay', async () => {
    const server = await start();
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
        /^testrun: the process exited before the run's results were delivered: 3 results spooled/,
      ),
    );
    const replayed = await runCli(['replay', '--dir', env.TESTRUN_SPOOL_DIR!], {
      env: { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url },
    });
    expect(replayed.code).toBe(0);
    expect(identities(server.server.store.allResults())).toEqual(
      identities(
        ['first', 'second', 'third'].map((t) => ({
          testSuite: 'passes.test.js',
          testCase: `passes > ${t}`,
          status: 'passed',
        })),
      ),
    );
  });
});
