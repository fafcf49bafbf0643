import type { ChildProcess } from 'node:child_process';
import {
  closedPortUrl,
  identities,
  misbehavingFaults,
  NEWMAN_SHOP_RESULTS,
  newmanFixtures,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  readSpoolLines,
  replayInto,
  reporterEnv,
  resultsIn,
  runNewman,
  shownState,
  startCollectionServer,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Real `newman run` processes (Newman 6, loading `-r cli,@testrun/testrun` as its users do)
// running the fixture collections against a local API (startCollectionServer), reporting into
// a real server: what it stored, Newman's exit code and console output as without the
// reporter. The mapping's every rule: packages/newman/test/map-events.test.ts.

const DATA = ['-d', newmanFixtures.users];

type Stored = { testSuite: string; testCase: string; status: string };

function spooled(dir: string): Stored[] {
  return readSpoolLines(dir)
    .filter((line) => line.type === 'batch')
    .flatMap((line) => line.results as Stored[]);
}

/** Newman's own summary table: its console output stayed. */
const NEWMAN_TABLE = /│\s+iterations\s+│\s+2\s+│/;

describe('newman run -r cli,@testrun/testrun with a data file', () => {
  let server: TestServer;
  let withReporter: RunOutcome;
  let alone: RunOutcome;

  beforeAll(async () => {
    // A run nobody completed reads abandoned at once: one that reads failed was ended by its reporter.
    server = await startTestServer({ abandonedAfterMs: 1 });
    const api = await startCollectionServer();
    [withReporter, alone] = await Promise.all([
      runNewman({ collection: newmanFixtures.shop, server: api, args: DATA, env: reporterEnv(server) }),
      runNewman({ collection: newmanFixtures.shop, server: api, args: DATA, withoutReporter: true }),
    ]);
    await api.close();
  });
  afterAll(() => server.close());

  it('stores a result per request and iteration in one newman run, as the mapping says', async () => {
    const runs = await server.server.store.runs();
    const output = withReporter.stdout + withReporter.stderr;
    expect(
      runs.map(({ framework }) => framework),
      output,
    ).toEqual(['newman']);
    const stored = await server.server.store.results(runs[0]!.id);
    expect(identities(stored), output).toEqual(identities(NEWMAN_SHOP_RESULTS));
    const failed = stored.find((result) => result.testCase === 'users > get user (iteration 2)');
    expect(failed?.details?.message).toBe(
      'status is 200: expected response to have status code 200 but got 404\n(and 1 more error)',
    );
    expect(await shownState(server, runs[0]!.id)).toEqual({ api: 'failed', page: 'failed' });
    const refused = stored.find((result) => result.testCase === 'unreachable (iteration 1)');
    expect(refused?.details?.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/status: connect ECONNREFUSED/);
  });

  it("keeps Newman's exit code and console output, and adds one summary line", () => {
    expect(alone.code).toBe(1);
    expect(withReporter.code).toBe(alone.code);
    expect(withReporter.stdout).toMatch(NEWMAN_TABLE);
    expect(testrunLines(withReporter.stdout + withReporter.stderr)).toEqual([
      expect.stringMatching(/^testrun: 16 results → run \S+/),
    ]);
  });
});

it('stores every result once through 5xx, dropped connections, a 429 and 413, options given on the command line, exit code unchanged', async () => {
  const server = await startTestServer({
    faults: misbehavingFaults(),
    maxResultsPerRequest: 5,
    announceResultLimits: false,
  });
  const api = await startCollectionServer();
  // Given as --reporter-@testrun/testrun-max-retries=12 and so on (runNewman).
  const options = { maxRetries: 12, requestTimeout: 400, batchSize: 8, project: 'from-the-command-line' };
  const outcome = await runNewman({
    collection: newmanFixtures.shop,
    server: api,
    args: DATA,
    env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify(options) }),
  });
  const output = outcome.stdout + outcome.stderr;
  const runs = await server.server.store.runs();
  expect(
    runs.map(({ project }) => project),
    output,
  ).toEqual(['from-the-command-line']);
  expect(identities(await server.server.store.results(runs[0]!.id)), output).toEqual(
    identities(NEWMAN_SHOP_RESULTS),
  );
  expect(server.server.requests.map((request) => request.status)).toEqual(expect.arrayContaining([429, 413]));
  expect(outcome.code).toBe(1);
});

it('spools what a service it cannot reach did not take, never prints the key, fails a passing run with failOnError; a replay stores it once', async () => {
  const apiKey = 'newman-secret-key-3c9e1f';
  const api = await startCollectionServer();
  const env = reporterEnv(
    { url: await closedPortUrl(), apiKey },
    { TESTRUN_DEBUG: '1', [REPORTER_OPTIONS_VAR]: JSON.stringify({ flushTimeout: 2000, failOnError: true }) },
  );
  // The orders folder passes: Newman alone exits 0.
  const outcome = await runNewman({
    collection: newmanFixtures.shop,
    server: api,
    args: ['--folder', 'orders'],
    env,
  });
  const output = outcome.stdout + outcome.stderr;
  const orders = resultsIn('Shop API', [
    ['orders > create order', 'passed'],
    ['orders > history > list orders', 'passed'],
  ]);
  expect(identities(spooled(env.TESTRUN_SPOOL_DIR!)), output).toEqual(identities(orders));
  expect(testrunLines(output)).toContainEqual(
    expect.stringMatching(
      /^testrun: failing the test run because failOnError is set: 2 of 2 results not delivered/,
    ),
  );
  expect(outcome.code).toBe(1);
  expect(output).toContain('ECONNREFUSED');
  expect(output).not.toContain(apiKey);

  const { server, replayed } = await replayInto(env.TESTRUN_SPOOL_DIR!, apiKey);
  expect(replayed.stderr).toBe('');
  expect(identities(await server.server.store.allResults())).toEqual(identities(orders));
});

it('streams results while the collection runs: the last request sees the earlier ones stored', async () => {
  const server = await startTestServer();
  const api = await startCollectionServer(async () => (await server.server.store.allResults()).length);
  const outcome = await runNewman({
    collection: newmanFixtures.streaming,
    server: api,
    env: reporterEnv(server),
  });
  const output = outcome.stdout + outcome.stderr;
  expect(outcome.code, output).toBe(0);
  expect(await server.server.store.allResults(), output).toHaveLength(4);
});

it('keeps the requests that ended of a job cancelled with SIGTERM, and ends as Newman alone does', async () => {
  const server = await startTestServer();
  const api = await startCollectionServer();
  /** SIGTERM once the collection waits on /wait: the first request has ended. */
  const cancel = (child: ChildProcess) => {
    let output = '';
    const listen = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('waits until the job is cancelled')) return;
      // Once: a second SIGTERM is core's exit-guard test's ("a second signal comes meanwhile").
      child.stdout?.off('data', listen);
      setTimeout(() => child.kill('SIGTERM'), 500);
    };
    child.stdout?.on('data', listen);
  };
  const env = reporterEnv(server);
  const [withReporter, alone] = await Promise.all([
    runNewman({ collection: newmanFixtures.cancelled, server: api, env, onSpawn: cancel }),
    runNewman({ collection: newmanFixtures.cancelled, server: api, withoutReporter: true, onSpawn: cancel }),
  ]);
  expect([withReporter.signal, withReporter.code]).toEqual([alone.signal, alone.code]);
  const finished = resultsIn('Cancelled', [['finishes before the job is cancelled', 'passed']]);
  // Delivered at once, or spooled on the way out: either way, exactly once. A batch the
  // process sent as it was ended may reach the server's store a moment after.
  const keptOnce = async () =>
    identities([...(await server.server.store.allResults()), ...spooled(env.TESTRUN_SPOOL_DIR!)]);
  await expect.poll(keptOnce, { timeout: 3000, message: withReporter.stderr }).toEqual(identities(finished));
});

it("ends a run Newman cut short (its --timeout) failed, with the error and the request it cut, as Newman's exit code says", async () => {
  const server = await startTestServer();
  const api = await startCollectionServer();
  // The second request waits for an answer that never comes: Newman's run timeout ends the run.
  // Generous: the first request must have ended by then on a loaded machine (2 s was not).
  const outcome = await runNewman({
    collection: newmanFixtures.cancelled,
    server: api,
    args: ['--timeout', '6000'],
    env: reporterEnv(server),
  });
  const output = outcome.stdout + outcome.stderr;
  expect(output).toContain('error: callback timed out');
  expect(outcome.code, output).toBe(1);
  const [run] = await server.server.store.runs();
  const stored = await server.server.store.results(run!.id);
  expect(identities(stored), output).toEqual(
    identities([
      ...resultsIn('Cancelled', [
        ['finishes before the job is cancelled', 'passed'],
        ['waits until the job is cancelled', 'failed'],
      ]),
      ...resultsIn('(run)', [['(unhandled error) callback timed out', 'failed']]),
    ]),
  );
  expect(
    stored.find((result) => result.testCase === 'waits until the job is cancelled')?.details?.message,
  ).toBe('the run ended before this request ended');
  expect(await shownState(server, run!.id)).toEqual({ api: 'failed', page: 'failed' });
});
