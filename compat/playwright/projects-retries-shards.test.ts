import {
  AWAIT_RUNS_TIMEOUT_MS,
  identities,
  PLAYWRIGHT_OWN_EXIT_CODE,
  playwrightFixtures,
  type RunOutcome,
  reporterEnv,
  runCli,
  runPlaywright,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README's Playwright example (section "How tests map to results"): the shop fixture
// has two projects that run the same spec files, one retry, a flaky test, a skipped and a
// fixme test and a test that fails. It must land in the service exactly as the README's
// table says, whole or in shards.

const cwd = playwrightFixtures.shop;

/** The README's table, one line per result. */
const SHOP_RESULTS = ['desktop', 'mobile'].flatMap((project) => [
  { testSuite: `[${project}] cart.spec.js`, testCase: 'cart > adds an item', status: 'passed' },
  { testSuite: `[${project}] cart.spec.js`, testCase: 'cart > applies a coupon', status: 'passed' },
  { testSuite: `[${project}] cart.spec.js`, testCase: 'cart > ships abroad', status: 'skipped' },
  { testSuite: `[${project}] cart.spec.js`, testCase: 'cart > pays with an expired card', status: 'failed' },
  { testSuite: `[${project}] search.spec.js`, testCase: 'finds a product', status: 'passed' },
  { testSuite: `[${project}] search.spec.js`, testCase: 'suggests a spelling', status: 'skipped' },
  { testSuite: `[${project}] search.spec.js`, testCase: 'filters > by price', status: 'passed' },
]);

/** How long the flaky test's first, failing attempt takes (cart.spec.js). */
const FIRST_ATTEMPT_MS = 1500;

describe('a Playwright run with two projects, retries and a flaky test', () => {
  let server: TestServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    outcome = await runPlaywright({ cwd, env: reporterEnv(server) });
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  const stored = async () => {
    const runs = await server.server.store.runs();
    expect(runs.map(({ project, framework }) => ({ project, framework }))).toEqual([
      { project: 'shop-fixture', framework: 'playwright' },
    ]);
    return await server.server.store.results(runs[0]!.id);
  };

  it('stores one result per test and project, labelled with the project, as the README says', async () => {
    expect(identities(await stored()), `${outcome.stdout}\n${outcome.stderr}`).toEqual(
      identities(SHOP_RESULTS),
    );
  });

  it("keeps the final attempt's duration for a test that passed on its retry", async () => {
    const flaky = (await stored()).filter((result) => result.testCase === 'cart > applies a coupon');
    expect(flaky).toHaveLength(2);
    for (const result of flaky) expect(result.duration).toBeLessThan(FIRST_ATTEMPT_MS);
  });

  it('counts the flaky tests in the summary line', async () => {
    const runId = (await server.server.store.runs())[0]?.id;
    expect(testrunLines(outcome.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(`^testrun: 14 results → run ${runId} .*; 2 flaky tests \\(passed on a retry\\)$`),
      ),
    ]);
  });

  it('exits 1 for the failing test, as without the reporter', () => {
    expect(outcome.code, outcome.stderr).toBe(PLAYWRIGHT_OWN_EXIT_CODE);
  });
});

describe('a Playwright run filtered to one project', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(() => server?.close());

  it('names its results as the whole run does: --project does not change identities', async () => {
    await runPlaywright({ cwd, args: ['--project=mobile'], env: reporterEnv(server) });
    const [run] = await server.server.store.runs();
    expect(identities(await server.server.store.results(run!.id))).toEqual(
      identities(SHOP_RESULTS.filter((result) => result.testSuite.startsWith('[mobile] '))),
    );
  });
});

describe('a sharded Playwright run reporting into the run testrun create-run made', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(() => server?.close());

  it('stores, over both shards, exactly what the whole run stores, none twice', async () => {
    const created = await runCli(['create-run', '--project', 'shop', '--framework', 'playwright'], {
      env: { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url },
    });
    expect(created.code, created.stderr).toBe(0);
    // The run as create-run prints it (its id, and what the service announced), as the shards take it.
    const handle = created.stdout.trim();
    const runId = handle.split(';')[0]!;

    const shards = await Promise.all(
      [1, 2].map((shard) =>
        runPlaywright({
          cwd,
          args: [`--shard=${shard}/2`],
          env: reporterEnv(server, { TESTRUN_RUN_ID: handle }),
        }),
      ),
    );

    expect((await server.server.store.runs()).map((run) => run.id)).toEqual([runId]);
    const shares = shards.map((shard) => {
      const [line] = testrunLines(shard.stderr);
      expect(line, shard.stdout).toMatch(new RegExp(`^testrun: \\d+ results? → run ${runId} `));
      return Number(/^testrun: (\d+)/.exec(line!)?.[1]);
    });
    // Playwright splits the run between the shards: each has a share, none has it all.
    expect(shares.every((share) => share > 0 && share < SHOP_RESULTS.length)).toBe(true);
    const results = await server.server.store.results(runId);
    expect(results).toHaveLength(SHOP_RESULTS.length);
    expect(identities(results)).toEqual(identities(SHOP_RESULTS));
  });
});
