import {
  FRAMEWORKS,
  identities,
  PARITY_REPORTER_OPTIONS,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  runCli,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { beforeEach, expect, it } from 'vitest';

// The CI recipe for shards: one job creates the run with `testrun create-run`, each shard
// reports into it through TESTRUN_RUN_ID. Three shards of the parity fixture must add up
// to exactly what one unsharded run stores (each framework: its own form of the fixture;
// Mocha: each job runs a share of the files).
const SHARDS = 3;

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

it.each(FRAMEWORKS)('$name: three shards fill the one run testrun create-run made', async (framework) => {
  const { name, run, fixtures, parityResults } = framework;
  const created = await runCli(['create-run', '--project', 'P', '--framework', name], {
    env: { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url },
  });
  expect(created.code, created.stderr).toBe(0);
  const runId = created.stdout.trim();

  const env = () =>
    reporterEnv(server, { TESTRUN_RUN_ID: runId, [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS });
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
});
