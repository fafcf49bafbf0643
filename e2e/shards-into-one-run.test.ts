import {
  FRAMEWORKS,
  identities,
  PARITY_REPORTER_OPTIONS,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  runCli,
  shownState,
  startTestServer,
  type TestServer,
  testrunLines,
  unexplainedFailures,
} from '@testrun/test-utils';
import { beforeEach, expect, it } from 'vitest';

// The CI recipe for shards (docs/ci.md): one job creates the run with `testrun create-run`,
// each shard reports into it through TESTRUN_RUN_ID, a job after them completes it with
// `testrun complete-run`. Three shards of the parity fixture must add up to exactly what one
// unsharded run stores (each framework: its own form of the fixture; Mocha: each job runs a
// share of the files), every failed test with why it failed, as an unsharded run's are.
const SHARDS = 3;

let server: TestServer;
const cliEnv = () => ({
  PATH: process.env.PATH,
  TESTRUN_API_KEY: server.apiKey,
  TESTRUN_BASE_URL: server.url,
});

beforeEach(async () => {
  // A run nobody completed reads abandoned at once: one that reads failed was ended by complete-run.
  server = await startTestServer({ abandonedAfterMs: 1 });
});

it.each(FRAMEWORKS)('$name: three shards fill the one run testrun create-run made', async (framework) => {
  const { name, run, fixtures, parityResults } = framework;
  const created = await runCli(['create-run', '--project', 'P', '--framework', name], { env: cliEnv() });
  expect(created.code, created.stderr).toBe(0);
  // The run as create-run prints it: its id, and what the service announced, for the shards.
  const handle = created.stdout.trim();
  const runId = handle.split(';')[0]!;
  expect(handle).toBe(
    `${runId};extensions=failure-details,complete-run,attachments;attachment-limits=104857600/1073741824`,
  );

  const env = () =>
    reporterEnv(server, { TESTRUN_RUN_ID: handle, [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS });
  const shards = await Promise.all(
    Array.from({ length: SHARDS }, (_, i) =>
      run({ cwd: fixtures.parity, args: framework.shardArgs(i + 1, SHARDS, fixtures.parity), env: env() }),
    ),
  );

  // One run, created by the CLI alone: no shard asked for a run of its own.
  expect((await server.server.store.runs()).map((stored) => stored.id)).toEqual([runId]);
  expect(server.server.requests.filter((request) => request.route === 'createRun')).toHaveLength(1);
  // Each shard delivered its share into that run...
  for (const shard of shards) {
    expect(testrunLines(shard.stderr), shard.stdout).toEqual([
      expect.stringMatching(new RegExp(`^testrun: \\d+ results? → run ${runId} `)),
    ]);
  }
  // ...and the shares add up to the unsharded results, none twice.
  const stored = identities(await server.server.store.results(runId));
  const keys = stored.map((result) => `${result.testSuite}\n${result.testCase}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(stored).toEqual(identities(parityResults));
  // Why each failed test failed, though no shard saw the answer that announced it.
  const all = await server.server.store.results(runId);
  expect(all.filter((result) => result.status === 'failed').length).toBeGreaterThan(0);
  expect(unexplainedFailures(all)).toEqual([]);

  // No shard completed the shared run; the job after them does.
  expect(server.server.requests.filter((request) => request.route === 'completeRun')).toEqual([]);
  expect((await shownState(server, runId)).api).toBe('abandoned');
  const completed = await runCli(['complete-run', '--status', 'failed'], {
    env: { ...cliEnv(), TESTRUN_RUN_ID: handle },
  });
  expect(completed.stdout, completed.stderr).toBe(`testrun complete-run: run ${runId} completed: failed\n`);
  expect(await shownState(server, runId)).toEqual({ api: 'failed', page: 'failed' });
});
