import fs from 'node:fs';
import path from 'node:path';
import {
  cleanEnv,
  closedPortUrl,
  descendantsOf,
  identities,
  missingBrowser,
  type RunOutcome,
  readSpoolLines,
  reporterEnv,
  resultsIn,
  runCli,
  runWdio,
  startTestServer,
  type TestServer,
  tempDir,
  testrunLines,
  WDIO_AWAIT_RUNS_TIMEOUT_MS,
  wdioMochaResults,
  webdriverioFixtures,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { docBlock } from '../test/doc-blocks.js';

// Real `wdio run`s of the WebdriverIO fixtures (a real Chromium through chromedriver) against a
// real server. Each config names @testrun/webdriverio as a reporter and its launcher service
// (`@testrun/webdriverio/service`), which creates the one run every worker reports into.

const missing = missingBrowser();
if (missing) console.warn(`skipping the WebdriverIO tests: ${missing}`);

const output = (run: RunOutcome) => `${run.stdout}\n${run.stderr}`;

/** The one run of `server` tagged `tag`, and its results. */
async function theRun(server: TestServer, tag: string) {
  const runs = (await server.server.store.runs()).filter((run) => run.tags.includes(tag));
  expect(runs).toHaveLength(1);
  return { run: runs[0]!, results: await server.server.store.results(runs[0]!.id) };
}

/** The state the server gives the run: running until something completes it. */
async function stateOf(server: TestServer, runId: string): Promise<string> {
  const answer = await fetch(`${server.url}/api/v1/runs/${runId}`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  return ((await answer.json()) as { state: string }).state;
}

describe.skipIf(missing)('wdio run with @testrun/webdriverio', () => {
  let server: TestServer;
  const runs: Record<string, RunOutcome> = {};
  let sharedRunId: string;
  /** Where the Mocha fixture's failing test saves its screenshots, one per worker. */
  const screenshots = tempDir('wdio-screenshots-');

  beforeAll(async () => {
    server = await startTestServer();
    const env = (tag: string, extra: Record<string, string> = {}) =>
      reporterEnv(server, { TESTRUN_TAGS: tag, ...extra });
    const state = tempDir('wdio-state-');
    // A run created before wdio starts, as a CI job's `testrun create-run` does for its shards.
    const created = await fetch(`${server.url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'shared', framework: 'webdriverio', tags: ['shared'] }),
    });
    sharedRunId = ((await created.json()) as { id: string }).id;
    // run.conf.mjs imports it: written before the run that uses it.
    fs.writeFileSync(
      path.join(webdriverioFixtures.readme, 'wdio.conf.mjs'),
      docBlock('webdriverio-readme-config'),
    );
    const [mocha, retried, shared] = await Promise.all([
      runWdio({ cwd: webdriverioFixtures.mocha, env: env('mocha', { FIXTURE_SCREENSHOT_DIR: screenshots }) }),
      runWdio({
        cwd: webdriverioFixtures.mocha,
        config: 'retry.conf.mjs',
        env: env('retried', { FIXTURE_STATE_DIR: state }),
      }),
      // The README's configuration as a user runs it: tsx in every worker, WebdriverIO's default.
      runWdio({
        cwd: webdriverioFixtures.readme,
        config: 'run.conf.mjs',
        env: reporterEnv(server, { TESTRUN_RUN_ID: sharedRunId, TESTRUN_COMPLETE_RUN: 'true' }),
        withTsx: true,
      }),
    ]);
    const [jasmine, cucumber, sessionFails] = await Promise.all([
      runWdio({ cwd: webdriverioFixtures.jasmine, env: env('jasmine') }),
      runWdio({ cwd: webdriverioFixtures.cucumber, env: env('cucumber') }),
      runWdio({ cwd: webdriverioFixtures.sessionFails, env: env('session-fails') }),
    ]);
    Object.assign(runs, { mocha, retried, shared, jasmine, cucumber, sessionFails });
  }, 2 * WDIO_AWAIT_RUNS_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it('stores every worker of a run (two capabilities, two spec files each) in one run, each capability labelled', async () => {
    const { mocha } = runs;
    const { run, results } = await theRun(server, 'mocha');
    expect(identities(results), output(mocha!)).toEqual(
      identities([...wdioMochaResults('chrome'), ...wdioMochaResults('chrome-2')]),
    );
    expect(run).toMatchObject({ project: 'e2e', framework: 'webdriverio' });
    // One summary line per worker, each naming the same run.
    const lines = testrunLines(output(mocha!)).filter((line) => line.includes('→ run'));
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toContain(`→ run ${run.id} `);
  });

  it("completes the run once, from the launcher service, after every worker ended (completeRun 'auto')", async () => {
    const mocha = (await theRun(server, 'mocha')).run;
    expect(await stateOf(server, mocha.id)).toBe('failed');
    const completions = server.server.requests.filter(
      (request) => request.route === 'completeRun' && request.path.includes(mocha.id),
    );
    expect(completions).toHaveLength(1);
    expect(testrunLines(output(runs.mocha!))).toContain(`testrun: run ${mocha.id} marked failed`);
  });

  it('stores why every failed test failed, though the workers did not create the run: the launcher hands on what the service announced', async () => {
    for (const tag of ['mocha', 'jasmine', 'cucumber']) {
      const failed = (await theRun(server, tag)).results.filter((result) => result.status === 'failed');
      expect(failed.length, tag).toBeGreaterThan(0);
      expect(
        failed.filter((result) => !result.details?.message?.trim()).map((result) => result.testCase),
        tag,
      ).toEqual([]);
    }
  });

  it("reports with the README's configuration into a run given by TESTRUN_RUN_ID, creating none and completing none: its creator does", async () => {
    const { shared } = runs;
    const sharedRuns = (await server.server.store.runs()).filter((run) => run.tags.includes('shared'));
    expect(sharedRuns.map((run) => run.id)).toEqual([sharedRunId]);
    expect(identities(await server.server.store.results(sharedRunId)), output(shared!)).toEqual(
      identities(resultsIn('specs/math.spec.js', [['math > adds', 'passed']])),
    );
    expect(
      (await server.server.store.runs()).filter((run) => run.project === 'e2e' && run.tags.length === 0),
    ).toEqual([]);
    expect(await stateOf(server, sharedRunId)).toBe('running');
    expect(shared!.code).toBe(0);
  });

  it('stores the screenshot a failing test saved with its failure, byte for byte, in each worker', async () => {
    const { run, results } = await theRun(server, 'mocha');
    const failing = results.filter((result) => result.testCase === 'cart > fails on purpose');
    expect(failing.map((result) => result.attachments?.map((file) => file.name))).toEqual([
      ['screenshot'],
      ['screenshot'],
    ]);
    const saved = fs.readdirSync(screenshots).map((name) => fs.readFileSync(path.join(screenshots, name)));
    expect(saved).toHaveLength(2);
    for (const result of failing) {
      const answer = await fetch(
        `${server.url}/api/v1/runs/${run.id}/attachments/${result.attachments![0]!.sha256}`,
        {
          headers: { authorization: `Bearer ${server.apiKey}` },
        },
      );
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(saved.some((file) => file.equals(bytes))).toBe(true);
    }
    // The other tests took none, and a passing test's files would stay home anyway.
    expect(
      results.filter((result) => result.attachments && result.testCase !== 'cart > fails on purpose'),
    ).toEqual([]);
  });

  it('never prints the API key, in the workers or the launcher', () => {
    for (const run of Object.values(runs)) expect(output(run)).not.toContain(server.apiKey);
  });

  it('keeps WebdriverIO’s exit code', () => {
    expect(runs.mocha!.code).toBe(1);
    expect(runs.retried!.code).toBe(0);
  });

  it('stores a spec file WebdriverIO ran again (specFileRetries) as its last attempt: passed', async () => {
    const { retried } = runs;
    expect(identities((await theRun(server, 'retried')).results), output(retried!)).toEqual(
      identities(
        resultsIn('retried/flaky-file.spec.js', [
          ['a flaky file > passes when WebdriverIO runs the file again', 'passed'],
        ]),
      ),
    );
    expect(output(retried!)).toContain('1 retries');
  });

  it('stores the Jasmine framework’s specs', async () => {
    const { jasmine } = runs;
    expect(identities((await theRun(server, 'jasmine')).results), output(jasmine!)).toEqual(
      identities(
        resultsIn('specs/cart.spec.js', [
          ['cart > opens a blank page', 'passed'],
          ['cart > fails on purpose', 'failed'],
          ['cart > is skipped', 'skipped'],
          ['cart > totals > sums line items', 'passed'],
        ]),
      ),
    );
    expect(jasmine!.code).toBe(1);
  });

  it('stores one result per Cucumber scenario and outline example, not per step', async () => {
    const { cucumber } = runs;
    expect(identities((await theRun(server, 'cucumber')).results), output(cucumber!)).toEqual(
      identities(
        resultsIn('features/cart.feature', [
          ['cart > opens a blank page', 'passed'],
          ['cart > fails on purpose', 'failed'],
          ['cart > adds 1 and 1 > Example #1.1', 'passed'],
          ['cart > adds 2 and 3 > Example #1.2', 'passed'],
        ]),
      ),
    );
    expect(cucumber!.code).toBe(1);
  });

  it('stores a spec file whose browser session never started as one failure of the file', async () => {
    const { sessionFails } = runs;
    expect(identities((await theRun(server, 'session-fails')).results), output(sessionFails!)).toEqual(
      identities(resultsIn('never-runs.spec.js', [['(file failed to run)', 'failed']])),
    );
    expect(sessionFails!.code).toBe(1);
  });
});

describe.skipIf(missing)('a worker ended by a signal mid-run (a cancelled job)', () => {
  it(
    'spools the finished tests into the run, for testrun replay; the launcher fails the file the worker never ended; WebdriverIO exits as it does',
    async () => {
      const server = await startTestServer();
      const state = tempDir('wdio-state-');
      const env = reporterEnv(server, {
        TESTRUN_TAGS: 'cancelled',
        FIXTURE_ONE_CAPABILITY: '1',
        FIXTURE_SPECS: './cancelled/slow.spec.js',
        FIXTURE_STATE_DIR: state,
      });
      const running = runWdio({ cwd: webdriverioFixtures.mocha, env });
      const marker = path.join(state, 'waiting');
      // Only a real pid: process.kill(0) would end this test's own process group, vitest and
      // pnpm with it (a CI run ended so, exit 143, when the file was read before its pid was in it).
      const workerPid = await vi.waitFor(
        () => {
          const pid = fs.existsSync(marker) ? Number(fs.readFileSync(marker, 'utf8')) : Number.NaN;
          expect(Number.isInteger(pid) && pid > 1, `a pid in ${marker}`).toBe(true);
          return pid;
        },
        { timeout: 60_000, interval: 100 },
      );
      // A cancelled job's signal reaches the whole process group; here only the worker gets it,
      // so its chromedriver and the Chromium it started would outlive the test: they are ended
      // once the run is over (the driver alone left the browser orphaned, after every run).
      const driverPids = descendantsOf(workerPid);
      process.kill(workerPid, 'SIGTERM');
      const outcome = await running;
      for (const pid of driverPids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }

      // Live: the launcher saw the worker end before its file did, and fails the file, saying
      // how (a worker killed outright, which can spool nothing, is compat/runner-verdicts.test.ts').
      const { run, results } = await theRun(server, 'cancelled');
      expect(identities(results), output(outcome)).toEqual(
        identities(resultsIn('cancelled/slow.spec.js', [['(file failed to run)', 'failed']])),
      );
      expect(results[0]?.details?.message).toMatch(
        /^the WebdriverIO worker 0-0 was ended by SIGTERM( \(exit code 143\))? before its spec files ended/,
      );
      // WebdriverIO's own code for a worker ended by a signal, with or without the reporter; the run says it failed.
      expect(outcome.code).toBe(1);
      expect(await stateOf(server, run.id)).toBe('failed');

      const batches = readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch');
      expect(
        batches.flatMap((batch) => batch.results as { testCase: string }[]).map((r) => r.testCase),
      ).toEqual(['a cancelled file > passes before the job is cancelled']);
      expect(testrunLines(output(outcome))).toContainEqual(
        expect.stringMatching(
          /^testrun: the process received SIGTERM before the run's results were delivered: 1 result spooled to /,
        ),
      );

      const replay = await runCli(['replay', '--dir', env.TESTRUN_SPOOL_DIR!], { env: cleanEnv(env) });
      expect(replay.code, replay.stderr).toBe(0);
      expect(identities(await server.server.store.results(run.id))).toEqual(
        identities(
          resultsIn('cancelled/slow.spec.js', [
            ['a cancelled file > passes before the job is cancelled', 'passed'],
            ['(file failed to run)', 'failed'],
          ]),
        ),
      );
    },
    WDIO_AWAIT_RUNS_TIMEOUT_MS,
  );
});

// The launcher's TESTRUN_RUN_KEY: the workers' create-runs, spooled, name one run at replay.
describe.skipIf(missing)('wdio run while the service is down', () => {
  it(
    'makes one run of every worker when the service is down at the start, once replayed, and WebdriverIO exits as it does',
    async () => {
      const server = await startTestServer();
      // The service is down for the whole `wdio run`: the launcher's create-run and each worker's fail.
      const env = reporterEnv(
        { url: await closedPortUrl(), apiKey: server.apiKey },
        { TESTRUN_TAGS: 'service-down', FIXTURE_ONE_CAPABILITY: '1' },
      );
      const outcome = await runWdio({ cwd: webdriverioFixtures.mocha, env });
      // The fixture fails a test on purpose: 1, as it is with the service up (the mocha run above).
      expect(outcome.code, output(outcome)).toBe(1);
      expect(testrunLines(output(outcome))).toContainEqual(
        expect.stringMatching(
          /^testrun: the run could not be created before the workers started \(.*\): the workers create it under one key \(TESTRUN_RUN_KEY\)/,
        ),
      );
      const spoolDir = env.TESTRUN_SPOOL_DIR!;
      // Two spec files, two workers, each its own spool file naming the run by the launcher's key.
      expect(fs.readdirSync(spoolDir).filter((name) => name.endsWith('.ndjson'))).toHaveLength(2);
      const created = readSpoolLines(spoolDir).filter((line) => line.type === 'run');
      expect(created).toHaveLength(2);
      expect(created[0]!.idempotencyKey).toEqual(expect.any(String));
      expect(created[1]!.idempotencyKey).toBe(created[0]!.idempotencyKey);
      expect(created[1]!.run).toEqual(created[0]!.run);

      const replay = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], {
        env: cleanEnv(reporterEnv(server)),
      });
      expect(replay.code, replay.stderr).toBe(0);
      const { run, results } = await theRun(server, 'service-down');
      expect(await server.server.store.runs()).toEqual([run]);
      expect(run).toMatchObject({ project: 'e2e', framework: 'webdriverio' });
      // One capability: its results are not labelled.
      const unlabelled = wdioMochaResults('chrome').map((result) => ({
        ...result,
        testSuite: result.testSuite.replace('[chrome] ', ''),
      }));
      expect(identities(results)).toEqual(identities(unlabelled));
    },
    WDIO_AWAIT_RUNS_TIMEOUT_MS,
  );
});
