import {
  AWAIT_RUNS_TIMEOUT_MS,
  type Framework,
  frameworksHere,
  identities,
  PASSING_RESULTS,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  reporterEnv,
  runLimiter,
  shownState,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A fresh server for each describe block, so every block sees only its own requests. It shows
 * a run nobody completed as abandoned at once (abandonedAfterMs: 1), so a run that reads
 * completed was ended by its reporter.
 */
function useServer(): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({ abandonedAfterMs: 1 });
  });
  afterAll(() => server?.close());
  return () => server!;
}

/** The framework runs of the blocks below, which run side by side, a few at a time. */
const limited = runLimiter();

// Every block has a server of its own: the frameworks, and each one's blocks, run side by side.
describe.concurrent.each(frameworksHere())('$name reporting a project', (framework) => {
  const { name, fixtures } = framework;
  const run: Framework['run'] = (options) => limited(() => framework.run(options));
  describe('a passing project reported to the service', () => {
    const server = useServer();
    let outcome: RunOutcome;

    beforeAll(async () => {
      outcome = await run({ cwd: fixtures.passing, env: reporterEnv(server()) });
    }, AWAIT_RUNS_TIMEOUT_MS);

    it('stores every test exactly once, in one run of the project', async () => {
      const runs = await server().server.store.runs();
      expect(runs.map(({ project, framework, tags }) => ({ project, framework, tags }))).toEqual([
        { project: 'passing-fixture', framework: name, tags: [] },
      ]);
      expect(identities(await server().server.store.results(runs[0]!.id))).toEqual(
        identities(PASSING_RESULTS),
      );
    });

    it('prints one summary line naming the run and how it ended', async () => {
      const runId = (await server().server.store.runs())[0]?.id;
      expect(testrunLines(outcome.stderr)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^testrun: 7 results → run ${runId} \\(\\d+ requests?, [\\d.]+ s\\) .*; run marked completed$`,
          ),
        ),
      ]);
    });

    it('ends the run it created, configured as its quick start says: completed in the read API and on the runs page', async () => {
      const [run] = await server().server.store.runs();
      expect(await shownState(server(), run!.id)).toEqual({ api: 'completed', page: 'completed' });
    });

    it('names the framework and its version in the User-Agent', () => {
      expect(server().server.requests[0]?.userAgent).toContain(`(${name}/${framework.version()}; node/`);
    });

    // Every test passed (stored above): the framework's own code is 0, and the reporter leaves it so.
    it('exits 0, as without the reporter', () => {
      expect(outcome.code, outcome.stderr).toBe(0);
    });
  });

  // Mocha has no shards: its CI jobs each run a share of the files, which no run can tell.
  describe.runIf(framework.knowsShards)('a sharded run', () => {
    const server = useServer();

    it('is tagged with its shard', async () => {
      const args = framework.shardArgs(1, 2, fixtures.passing);
      await run({ cwd: fixtures.passing, args, env: reporterEnv(server()) });
      expect((await server().server.store.runs()).map((r) => r.tags)).toEqual([['shard:1/2']]);
    });
  });

  describe('without TESTRUN_API_KEY', () => {
    const server = useServer();

    it('prints one line, sends nothing and keeps the exit code', async () => {
      const outcome = await run({ cwd: fixtures.passing, env: { TESTRUN_BASE_URL: server().url } });

      expect(testrunLines(outcome.stderr)).toEqual([expect.stringContaining('TESTRUN_API_KEY is not set')]);
      expect(testrunLines(outcome.stdout)).toEqual([]);
      expect(server().server.requests).toEqual([]);
      expect(outcome.code).toBe(0);
    });
  });

  // One server for both, whose requests the first reads: in turn.
  describe.sequential('when the service refuses the key', () => {
    const server = useServer();
    const refusedEnv = (options: object = {}) =>
      reporterEnv(server(), {
        TESTRUN_API_KEY: 'not-the-key',
        [REPORTER_OPTIONS_VAR]: JSON.stringify(options),
      });

    it('keeps the exit code of the tests', async () => {
      const outcome = await run({ cwd: fixtures.passing, env: refusedEnv() });

      expect(server().server.requests.map((request) => request.status)).toEqual([401]);
      expect(outcome.code).toBe(0);
    });

    it('fails the run with failOnError, saying why', async () => {
      const outcome = await run({ cwd: fixtures.passing, env: refusedEnv({ failOnError: true }) });

      expect(testrunLines(outcome.stderr)).toContainEqual(
        expect.stringContaining('failing the test run because failOnError is set'),
      );
      expect(outcome.code).toBe(1);
    });
  });
});
