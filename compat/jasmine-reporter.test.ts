import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  closedPortUrl,
  identities,
  JASMINE_MAPPING_RESULTS,
  JASMINE_PARALLEL_ARGS,
  JASMINE_PARALLEL_MAPPING_RESULTS,
  JASMINE_PARALLEL_ONLY_FILES,
  JASMINE_PARITY_RESULTS,
  JASMINE_SERIAL_PARITY_RESULTS,
  jasmineFixtures,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  replaySpool,
  reporterEnv,
  resultsIn,
  resultsTagged,
  runJasmine,
  seededFaults,
  shownState,
  startTestServer,
  type TestServer,
  tempDir,
  testrunLines,
  unexplainedFailures,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Real `jasmine` processes against a real server: what the server stored, the exit code
// Jasmine would have had without the reporter, and Jasmine's own console output.

/** Jasmine's console reporter's count line: the console output stayed. */
const JASMINE_SUMMARY = /\d+ specs, \d+ failures?/;

async function storedIn(server: TestServer) {
  return { runs: await server.server.store.runs(), results: await server.server.store.allResults() };
}

describe('jasmine with @testrun/jasmine/register in jasmine.json', () => {
  let server: TestServer;
  let withReporter: RunOutcome;
  let alone: RunOutcome;

  beforeAll(async () => {
    // A run nobody completed reads abandoned at once: one that reads failed was ended by its reporter.
    server = await startTestServer({ abandonedAfterMs: 1 });
    [withReporter, alone] = await Promise.all([
      runJasmine({ cwd: jasmineFixtures.mapping, env: reporterEnv(server) }),
      runJasmine({ cwd: jasmineFixtures.mapping, withoutReporter: true }),
    ]);
  });
  afterAll(() => server.close());

  it('stores every spec in one run, by the mapping rules', async () => {
    const { runs, results } = await storedIn(server);
    const output = withReporter.stdout + withReporter.stderr;
    expect(runs.map((run) => run.framework)).toEqual(['jasmine']);
    expect(identities(results), output).toEqual(identities(JASMINE_MAPPING_RESULTS));
    expect(await shownState(server, runs[0]!.id)).toEqual({ api: 'failed', page: 'failed' });
  });

  it("keeps Jasmine's exit code and console output, and adds one summary line", () => {
    expect(alone.code).toBe(3);
    expect(withReporter.code).toBe(alone.code);
    expect(withReporter.stdout).toMatch(JASMINE_SUMMARY);
    expect(testrunLines(withReporter.stdout + withReporter.stderr)).toEqual([
      expect.stringMatching(/^testrun: 22 results → run \S+/),
    ]);
  });
});

describe('jasmine --parallel with the reporter in the config file', () => {
  let server: TestServer;
  let withReporter: RunOutcome;
  let alone: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    [withReporter, alone] = await Promise.all([
      runJasmine({ cwd: jasmineFixtures.mapping, args: JASMINE_PARALLEL_ARGS, env: reporterEnv(server) }),
      // Without the key the reporter reports nothing: Jasmine's exit code alone.
      runJasmine({ cwd: jasmineFixtures.mapping, args: JASMINE_PARALLEL_ARGS }),
    ]);
  });
  afterAll(() => server.close());

  it("stores every worker's specs in one run, a file that failed to load as (file failed to run)", async () => {
    const { runs, results } = await storedIn(server);
    const output = withReporter.stdout + withReporter.stderr;
    expect(runs, output).toHaveLength(1);
    expect(identities(results), output).toEqual(identities(JASMINE_PARALLEL_MAPPING_RESULTS));
  });

  it("keeps Jasmine's exit code and console output, and adds one summary line", () => {
    expect(alone.code).toBe(3);
    expect(withReporter.code).toBe(alone.code);
    expect(withReporter.stdout).toMatch(JASMINE_SUMMARY);
    expect(testrunLines(withReporter.stdout + withReporter.stderr)).toEqual([
      expect.stringMatching(/^testrun: 22 results → run \S+/),
    ]);
    expect(testrunLines(alone.stdout + alone.stderr)).toEqual([
      expect.stringContaining('TESTRUN_API_KEY is not set'),
    ]);
  });
});

it('says once that register reports nothing under --parallel, and leaves the exit code', async () => {
  const server = await startTestServer();
  const [outcome, alone] = await Promise.all([
    runJasmine({ cwd: jasmineFixtures.mapping, args: ['--parallel=2'], env: reporterEnv(server) }),
    runJasmine({ cwd: jasmineFixtures.mapping, args: ['--parallel=2'], withoutReporter: true }),
  ]);
  const output = outcome.stdout + outcome.stderr;
  expect(testrunLines(output)).toEqual([
    expect.stringContaining('@testrun/jasmine/register reports nothing with --parallel'),
  ]);
  expect((await storedIn(server)).runs).toEqual([]);
  expect(outcome.code).toBe(alone.code);
});

it('stores the specs fit and fdescribe left out as skipped; a focused run, which Jasmine calls incomplete, ends failed, saying so; the exit code stays', async () => {
  const server = await startTestServer();
  const [outcome, alone] = await Promise.all([
    runJasmine({ cwd: jasmineFixtures.focused, env: reporterEnv(server) }),
    runJasmine({ cwd: jasmineFixtures.focused, withoutReporter: true }),
  ]);
  const { runs, results } = await storedIn(server);
  expect(identities(results), outcome.stdout + outcome.stderr).toEqual(
    identities([
      ...resultsIn('spec/focused.spec.js', [
        ['search > finds a product', 'passed'],
        ['search > suggests a spelling', 'skipped'],
        ['search > filters > by price', 'passed'],
      ]),
      ...resultsIn('spec/other.spec.js', [['runs only without focus elsewhere', 'skipped']]),
      ...resultsIn('(run)', [
        ['(unhandled error) Jasmine ended the run incomplete: fit() or fdescribe() was found', 'failed'],
      ]),
    ]),
  );
  // Jasmine says a focused run is incomplete: exit code 2, and the run is not green.
  expect([outcome.code, alone.code]).toEqual([2, 2]);
  expect(await shownState(server, runs[0]!.id)).toEqual({ api: 'failed', page: 'failed' });
});

describe('the reporter added in a helper with options in code', () => {
  it('reports with those options', async () => {
    const server = await startTestServer();
    const outcome = await runJasmine({ cwd: jasmineFixtures.inCode, env: reporterEnv(server) });
    const { runs, results } = await storedIn(server);
    expect(runs.map((run) => run.project)).toEqual(['in-code']);
    expect(identities(results)).toEqual(resultsIn('spec/passes.spec.js', [['in code > passes', 'passed']]));
    expect(outcome.code).toBe(0);
  });

  it('adds no second reporter from register beside one in the config file', async () => {
    const server = await startTestServer();
    const outcome = await runJasmine({
      cwd: jasmineFixtures.inCode,
      args: ['--config=spec/support/twice.mjs'],
      env: reporterEnv(server),
    });
    const output = outcome.stdout + outcome.stderr;
    expect(
      (await storedIn(server)).runs.map((run) => run.project),
      output,
    ).toEqual(['twice']);
    expect(testrunLines(output)).toHaveLength(1);
  });

  it('fails a passing run with failOnError when the service cannot be reached, naming why', async () => {
    const outcome = await runJasmine({
      cwd: jasmineFixtures.inCode,
      env: reporterEnv({ url: await closedPortUrl(), apiKey: 'test-key' }),
    });
    expect(testrunLines(outcome.stdout + outcome.stderr)).toContainEqual(
      expect.stringContaining('failing the test run because failOnError is set'),
    );
    expect(outcome.code).toBe(3);
  });
});

it('streams results while specs still run: the last spec sees the earlier files stored', async () => {
  const server = await startTestServer();
  const outcome = await runJasmine({ cwd: jasmineFixtures.streaming, env: reporterEnv(server) });
  const output = outcome.stdout + outcome.stderr;
  expect(output).toContain('stored while the last file ran: 9');
  expect((await storedIn(server)).results, output).toHaveLength(10);
  expect(outcome.code, output).toBe(0);
  expect(output).not.toContain(server.apiKey);
});

describe('jasmine cancelled by SIGTERM mid-run', () => {
  /** Sends SIGTERM once the slow spec waits (it writes `waitingFile`): the finished specs are in hand. */
  function cancelWhenWaiting(waitingFile: string) {
    return (child: ChildProcess) => {
      const poll = setInterval(() => {
        if (!fs.existsSync(waitingFile)) return;
        clearInterval(poll);
        setTimeout(() => child.kill('SIGTERM'), 300);
      }, 50);
      child.on('exit', () => clearInterval(poll));
    };
  }
  const cancel = (env: Record<string, string | undefined>, withoutReporter = false) => {
    const waitingFile = path.join(tempDir('testrun-waiting-'), 'waiting');
    return runJasmine({
      cwd: jasmineFixtures.cancelled,
      withoutReporter,
      env: { ...env, FIXTURE_WAITING_FILE: waitingFile },
      onSpawn: cancelWhenWaiting(waitingFile),
    });
  };

  it('ends as without the reporter, spools every finished spec, and a replay stores each once', async () => {
    const url = await closedPortUrl();
    const apiKey = 'cancel-key-4711';
    const env = reporterEnv({ url, apiKey });
    const [withReporter, without] = await Promise.all([cancel(env), cancel({}, true)]);
    expect({ code: withReporter.code, signal: withReporter.signal }).toEqual({
      code: without.code,
      signal: without.signal,
    });
    expect(testrunLines(withReporter.stderr)).toContainEqual(
      expect.stringMatching(
        /^testrun: the process received SIGTERM before the run's results were delivered: /,
      ),
    );
    expect(withReporter.stdout + withReporter.stderr).not.toContain(apiKey);

    const target = await startTestServer({ apiKey });
    const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, target, ['--ignore-recorded-url']);
    expect(replayed.stderr).toBe('');
    expect(identities(await target.server.store.allResults())).toEqual(
      identities([
        ...resultsIn('spec/fast.spec.js', [
          ['fast > adds', 'passed'],
          ['fast > subtracts', 'passed'],
          ['fast > multiplies', 'passed'],
        ]),
        ...resultsIn('spec/slow.spec.js', [['slow > finishes before the job is cancelled', 'passed']]),
      ]),
    );
  });
});

describe('the parity fixture, run under Jasmine', () => {
  let server: TestServer;
  let parallel: RunOutcome;
  let serial: RunOutcome;
  let parallelAlone: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    const env = (tag: string) => reporterEnv(server, { TESTRUN_TAGS: tag });
    const cwd = jasmineFixtures.parity;
    const serialFiles = fs
      .readdirSync(cwd)
      .filter((file) => file.endsWith('.test.js') && !JASMINE_PARALLEL_ONLY_FILES.includes(file));
    [parallel, serial, parallelAlone] = await Promise.all([
      runJasmine({ cwd, args: ['--parallel=2'], env: env('parallel') }),
      runJasmine({ cwd, args: serialFiles, env: env('serial') }),
      runJasmine({ cwd, args: ['--parallel=2'], withoutReporter: true }),
    ]);
  });
  afterAll(() => server.close());

  it("stores the shared expected results in --parallel mode, with Jasmine's own verdicts where it has them", async () => {
    expect(identities(await resultsTagged(server, 'parallel')), parallel.stdout + parallel.stderr).toEqual(
      identities(JASMINE_PARITY_RESULTS),
    );
  });

  it('names the same tests the same in serial mode', async () => {
    expect(identities(await resultsTagged(server, 'serial')), serial.stdout + serial.stderr).toEqual(
      identities(JASMINE_SERIAL_PARITY_RESULTS),
    );
  });

  it('says why every failed result failed: a spec a beforeAll kept from running, a file that failed outside its specs', async () => {
    for (const tag of ['parallel', 'serial']) {
      const results = await resultsTagged(server, tag);
      expect(unexplainedFailures(results), tag).toEqual([]);
      const said = (testSuite: string, testCase: string) =>
        results.find((result) => result.testSuite === testSuite && result.testCase === testCase)?.details
          ?.message;
      // Jasmine reports the beforeAll's error on the suite, and on its specs only that they did not
      // run. In --parallel mode another worker's spec may end between the two, and the spec then
      // keeps Jasmine's own words (map-events.ts, nearestSuiteErrors): never an empty reason.
      const beforeAllSaid = said('setup-fails.test.js', 'database > writes a row');
      if (tag === 'serial') expect(beforeAllSaid, tag).toBe('Error: cannot connect to the database');
      else
        expect(beforeAllSaid, tag).toMatch(
          /^(Error: cannot connect to the database|Not run because a beforeAll function failed\b.*)$/,
        );
      expect(said('describe-throws.test.js', '(file failed to run)'), tag).toBe(
        'Error: the describe body throws',
      );
    }
  });

  it('leaves the exit code as without the reporter', () => {
    expect(parallel.code).toBe(parallelAlone.code);
    expect(parallel.code).toBe(3);
  });
});

it('stores every result of a --parallel run once through 5xx, dropped connections and a 429, exit code unchanged', async () => {
  const flaky = seededFaults({ seed: 7, rates: { status5xx: 0.25, drop: 0.1 } });
  const server = await startTestServer({
    faults: (request) => {
      if (request.route === 'submitResults' && request.n === 0) {
        return { status: 429, headers: { 'retry-after': '1' } };
      }
      return flaky(request);
    },
    maxResultsPerRequest: 5,
  });
  const options = { maxRetries: 12, requestTimeout: 400, batchSize: 5 };
  const outcome = await runJasmine({
    cwd: jasmineFixtures.parity,
    args: ['--parallel=2'],
    env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify(options) }),
  });
  const output = outcome.stdout + outcome.stderr;
  const runs = await server.server.store.runs();
  expect(runs, output).toHaveLength(1);
  expect(identities(await server.server.store.results(runs[0]!.id)), output).toEqual(
    identities(JASMINE_PARITY_RESULTS),
  );
  expect(server.server.requests.map((request) => request.status)).toContain(429);
  expect(outcome.code).toBe(3);
});

it('never prints the API key, even with TESTRUN_DEBUG, serial or --parallel', async () => {
  const server = await startTestServer({ apiKey: 'jasmine-secret-key-5b1e7d' });
  const env = reporterEnv(server, { TESTRUN_DEBUG: '1' });
  const outcomes = await Promise.all([
    runJasmine({ cwd: jasmineFixtures.inCode, env }),
    runJasmine({ cwd: jasmineFixtures.mapping, args: JASMINE_PARALLEL_ARGS, env }),
  ]);
  expect((await storedIn(server)).runs).toHaveLength(2);
  for (const outcome of outcomes) {
    const output = outcome.stdout + outcome.stderr;
    expect(testrunLines(output).length, output).toBeGreaterThan(1);
    expect(output).not.toContain(server.apiKey);
  }
});

it('stores what ran before --fail-fast stopped the run, and nothing after', async () => {
  const server = await startTestServer();
  const args = ['--fail-fast', '--random=false'];
  const [outcome, alone] = await Promise.all([
    runJasmine({ cwd: jasmineFixtures.mapping, args, env: reporterEnv(server) }),
    runJasmine({ cwd: jasmineFixtures.mapping, args, withoutReporter: true }),
  ]);
  // In declaration order, cart.spec.js first: its specs up to the first failure.
  const ran = JASMINE_MAPPING_RESULTS.filter(({ testSuite }) => testSuite === 'spec/cart.spec.js').filter(
    ({ testCase }) => !testCase.startsWith('cart > legacy checkout'),
  );
  // The top-level afterAll of a file that never ran still runs at the end: its stack names no
  // file a spec ran from, so it is an error of the run.
  const teardown = {
    testSuite: '(run)',
    testCase: '(unhandled error) Error: top-level teardown',
    status: 'failed',
  };
  expect(identities((await storedIn(server)).results), outcome.stdout + outcome.stderr).toEqual(
    identities([...ran, teardown]),
  );
  expect([outcome.code, alone.code]).toEqual([3, 3]);
});
