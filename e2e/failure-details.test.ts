import fs from 'node:fs';
import path from 'node:path';
import type { FaultRequest } from '@testrun/server';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  copyFixture,
  fixtures,
  frameworksHere,
  jasmineFixtures,
  PARITY_REPORTER_OPTIONS,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  reporterEnv,
  resultsOfFramework,
  runCucumber,
  runJasmine,
  runJest,
  runsLegsOf,
  runVitest,
  startTestServer,
  type TestServer,
  unexplainedFailures,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Why a test failed (docs/design/failure-details.md), from real Vitest and Jest runs of
// the parity fixture's cart.test.js (one test fails: `expect(1 + 1).toBe(3)` on line 15):
// a server that announces the extension stores the message and a location in the fixture
// file; one that does not receives exactly the spec's four fields.

const FAILING = 'cart > fails on purpose';
const SPEC_FIELDS = ['testSuite', 'testCase', 'status', 'duration'];

async function runBoth(server: TestServer): Promise<RunOutcome[]> {
  const env = () => reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS });
  const cwd = fixtures.parity;
  return Promise.all([
    runVitest({ cwd, env: env(), args: ['cart.test.js'] }),
    runJest({ cwd, env: env(), args: ['cart.test.js'] }),
  ]);
}

if (runsLegsOf('vitest'))
  describe('a server that announces failure-details', () => {
    let server: TestServer;
    let outcomes: RunOutcome[];

    beforeAll(async () => {
      server = await startTestServer();
      outcomes = await runBoth(server);
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it.each([
      ['vitest', 'expected 2 to be 3 // Object.is equality'],
      ['jest', 'Expected: 3\nReceived: 2'],
    ])(
      'stores why the test failed under %s: its message and its line in the fixture file',
      async (framework, said) => {
        expect(outcomes.map((outcome) => outcome.code)).toEqual([1, 1]);
        const results = await resultsOfFramework(server, framework);
        const failed = results.find((result) => result.testCase === FAILING);
        expect(failed?.details?.message).toContain(said);
        expect(failed?.details?.location).toMatch(/^cart\.test\.js:15:\d+$/);
        expect(failed?.details?.stack).toContain(path.join(fixtures.parity, 'cart.test.js'));
        expect(
          results.filter((result) => result.status !== 'failed').every((result) => !result.details),
        ).toBe(true);
      },
    );
  });

if (runsLegsOf('vitest'))
  describe('a server that announces nothing beyond the spec', () => {
    let server: TestServer;
    const seen: FaultRequest[] = [];

    beforeAll(async () => {
      server = await startTestServer({
        failureDetails: false,
        completeRun: false,
        readRuns: false,
        quarantine: false,
        shardPlans: false,
        attachments: false,
        faults: (request) => {
          seen.push(request);
        },
      });
      await runBoth(server);
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('receives exactly the four fields of every result, the failed ones too', () => {
      const bodies = seen
        .filter((request) => request.route === 'submitResults')
        .map((request) => request.body);
      const results = bodies.flatMap((body) => (body as { results: Record<string, unknown>[] }).results);
      expect(results.filter((result) => result.testCase === FAILING)).toHaveLength(2);
      for (const result of results) expect(Object.keys(result)).toEqual(SPEC_FIELDS);
      // Every body was accepted: none was refused for a field the server does not know.
      expect(
        server.server.requests.filter((request) => request.route === 'submitResults').map((r) => r.status),
      ).toEqual(bodies.map(() => 201));
    });

    it("gets the spec's two operations alone: no request completes a run", () => {
      const runIds = new Set(
        seen.filter((r) => r.route === 'submitResults').map((r) => r.path.split('/')[4]),
      );
      expect(runIds.size).toBe(2);
      expect([...new Set(seen.map((request) => `${request.method} ${request.route}`))].sort()).toEqual([
        'POST createRun',
        'POST submitResults',
      ]);
    });
  });

if (runsLegsOf('vitest'))
  describe('a test that prints the API key in its assertion', () => {
    it('is stored with why it failed, the key redacted', async () => {
      const server = await startTestServer();
      const cwd = copyFixture(fixtures.passing);
      fs.writeFileSync(
        path.join(cwd, 'leaks.test.js'),
        "test('compares the key', () => {\n  expect(process.env.TESTRUN_API_KEY).toBe('another key');\n});\n",
      );
      const outcome = await runVitest({ cwd, env: reporterEnv(server), args: ['leaks.test.js'] });
      expect(outcome.code).toBe(1);
      const [failed] = await resultsOfFramework(server, 'vitest');
      expect(failed?.details?.message).toBe("expected '***' to be 'another key' // Object.is equality");
      expect(failed?.details?.location).toMatch(/^leaks\.test\.js:2:\d+$/);
      expect(JSON.stringify(await server.server.store.allResults())).not.toContain(server.apiKey);
    });
  });

describe.each(frameworksHere().filter(({ name }) => ['playwright', 'mocha', 'node-test'].includes(name)))(
  'the parity fixture under $name',
  ({ name, run, fixtures: own }) => {
    it('stores the failing test with its message and its line in cart.test.js, and why every other failed result failed', async () => {
      const server = await startTestServer();
      await run({
        cwd: own.parity,
        env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS }),
      });
      const results = await resultsOfFramework(server, name);
      const failed = results.find((result) => result.testCase.endsWith(FAILING));
      expect(failed?.status).toBe('failed');
      expect(failed?.details?.message).toMatch(/\b3\b/);
      expect(failed?.details?.location).toMatch(/(^|\/)cart\.test\.js:\d+(:\d+)?$/);
      // A test a failed hook kept from running, a file that failed outside its tests: the runner's error.
      expect(unexplainedFailures(results)).toEqual([]);
      const said = (testSuite: string, testCase: string) =>
        results.find((result) => result.testSuite === testSuite && result.testCase === testCase)?.details
          ?.message;
      expect(said('setup-fails-at-top.test.js', 'a block > needs it too')).toMatch(
        /the file-level setup failed$/,
      );
      expect(said('setup-fails.test.js', 'database > writes a row')).toMatch(
        /cannot connect to the database$/,
      );
      if (name !== 'playwright') {
        // Playwright's own fixture has no file that fails to load: compat/playwright/parity.test.ts runs those.
        expect(said('import-throws.test.js', '(file failed to run)')).toMatch(
          /this file throws while it is imported$/,
        );
        expect(said('teardown-fails.test.js', '(file failed to run)')).toMatch(/teardown failed$/);
      }
    });
  },
);

if (runsLegsOf('jasmine'))
  describe('Jasmine and Cucumber', () => {
    it('store a failed spec with its failed expectation and its line in the spec file', async () => {
      const server = await startTestServer();
      await runJasmine({ cwd: jasmineFixtures.parity, args: ['cart.test.js'], env: reporterEnv(server) });
      const failed = (await resultsOfFramework(server, 'jasmine')).find(
        (result) => result.testCase === FAILING,
      );
      expect(failed?.details?.message).toBe('Expected 2 to be 3.');
      expect(failed?.details?.location).toMatch(/cart\.(test|spec)\.js:\d+:\d+$/);
    });

    it('store a failed scenario with its failed step’s message, stack and line in the feature file', async () => {
      const server = await startTestServer();
      await runCucumber({ env: reporterEnv(server) });
      const failed = (await resultsOfFramework(server, 'cucumber')).find(
        (result) => result.testCase === FAILING,
      );
      expect(failed?.details?.message).toMatch(/\S/);
      expect(failed?.details?.stack).toMatch(/steps?\.[cm]?js:\d+/);
      // `Then the cart holds 2 items`, the step that failed, not the step definition's JavaScript.
      expect(failed?.details?.location).toBe('features/cart.feature:5');
      expect(failed?.details?.attempts).toBe(1);
    });
  });
