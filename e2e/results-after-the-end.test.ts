import path from 'node:path';
import {
  fixtures,
  identities,
  readSpoolLines,
  replaySpool,
  reporterEnv,
  runJest,
  startTestServer,
  tempDir,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

describe('jest --bail -w 2 with a slow service', () => {
  it('puts a file that ends while the end of the run delivers into the same run, and adds no failure of its own', async () => {
    // Each results request takes 2.5 s: the end of the run is still delivering when slow.test.js ends.
    const server = await startTestServer({
      faults: (request) => (request.route === 'submitResults' ? { delayMs: 2500 } : undefined),
    });
    const cache = tempDir('testrun-jest-cache-');
    // fails.test.js fails once slow.test.js has started: the bail always finds it running.
    const started = (run: string) => ({ BAIL_FIXTURE_STARTED: path.join(cache, `${run}.started`) });
    const env = reporterEnv(server, {
      FIXTURE_REPORTER_OPTIONS: JSON.stringify({ flushTimeout: 10_000 }),
      ...started('with'),
    });
    const [withReporter, without] = await Promise.all([
      runJest({ cwd: fixtures.bail, args: ['--bail', '-w', '2', `--cacheDirectory=${cache}`], env }),
      runJest({
        cwd: fixtures.bail,
        args: ['--bail', '-w', '2', `--cacheDirectory=${cache}-alone`],
        env: started('without'),
        withoutReporter: true,
      }),
    ]);
    expect(withReporter.code).toBe(without.code);

    // One run, created once; whatever the end did not deliver is in its spool, sent by a replay.
    expect(server.server.requests.filter((request) => request.route === 'createRun')).toHaveLength(1);
    const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!);
    expect(new Set(spooled.filter((line) => line.type === 'run').map((line) => line.runId))).toEqual(
      new Set(spooled.length > 0 ? [(await server.server.store.runs())[0]!.id] : []),
    );
    server.server.setFaults(undefined);
    const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, server);
    expect(replayed.code).toBe(0);
    const [run] = await server.server.store.runs();
    expect(await server.server.store.runs()).toHaveLength(1);
    // Every file that ended is stored once, and no `(run)` failure says the process exited.
    expect(identities(await server.server.store.results(run!.id))).toEqual(
      identities([
        { testSuite: 'fails.test.js', testCase: 'fails on purpose', status: 'failed' },
        { testSuite: 'slow.test.js', testCase: 'finishes after the bail', status: 'passed' },
      ]),
    );
  });
});
