import {
  AWAIT_RUNS_TIMEOUT_MS,
  CUCUMBER_NAMES_RESULTS,
  CUCUMBER_RESULTS,
  CUCUMBER_SUMMARY,
  identities,
  PARITY_RESULTS,
  type RunOutcome,
  reporterEnv,
  resultsIn,
  resultsTagged,
  runCucumber as runCucumberWith,
  shownState,
  startTestServer,
  type TestServer,
  testrunLines,
  unexplainedFailures,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Real `cucumber-js` runs of the Cucumber fixture (its cucumber.cjs names @testrun/cucumber
// as a formatter) against a real server, held to the results written down once in
// test-utils (CUCUMBER_RESULTS; docs/naming.md#cucumber).

function runCucumber(args: readonly string[], env: Record<string, string | undefined> = {}) {
  return runCucumberWith({ args, env });
}

describe('the Cucumber fixture beside the shared parity fixture', () => {
  // Where Gherkin can write the parity fixture's tests (a describe is a Feature or Rule),
  // they are named and judged alike; pending, Cucumber's todo, fails a strict run instead.
  const SHARED = [
    'cart > fails on purpose',
    'cart > totals > sums line items',
    'cart > totals > applies a percentage discount',
    'cart > totals > rounds half cents to even',
    'ünïcödé names > naïve café crème brûlée',
    'ünïcödé names > 中文测试 and 日本語',
  ];

  it.each(SHARED)('stores %s with the name and status the other runners store', (testCase) => {
    const cucumber = CUCUMBER_RESULTS.find((result) => result.testCase === testCase);
    const others = PARITY_RESULTS.find((result) => result.testCase === testCase);
    expect(cucumber?.status).toBeDefined();
    expect(cucumber?.status).toBe(others?.status);
  });
});

describe('cucumber-js with @testrun/cucumber as a formatter', () => {
  let server: TestServer;
  const runs: Record<string, RunOutcome> = {};

  beforeAll(async () => {
    // A run nobody completed reads abandoned at once: one that reads failed was ended by its reporter.
    server = await startTestServer({ abandonedAfterMs: 1 });
    const env = (tag: string) => reporterEnv(server, { TESTRUN_TAGS: tag });
    const [serial, alone, parallel, dryRun, tagged, unparsable, commandLine, none] = await Promise.all([
      runCucumber([], env('serial')),
      runCucumber(['-p', 'alone']),
      runCucumber(['--parallel', '2'], env('parallel')),
      runCucumber(['--dry-run'], env('dry-run')),
      runCucumber(['--tags', 'not @slow and not @flaky'], env('tagged')),
      runCucumber(['broken/unparsable.feature', 'features/names.feature'], env('unparsable')),
      // On the command line instead of in the profile, with pretty's output kept.
      runCucumber(
        [
          '-p',
          'alone',
          '--format',
          '@testrun/cucumber',
          '--format-options',
          JSON.stringify({ testrun: { formatter: 'pretty', tags: ['command-line'] } }),
          'features/names.feature',
        ],
        reporterEnv(server),
      ),
      runCucumber(['--tags', '@no-such-tag'], env('none')),
    ]);
    Object.assign(runs, { serial, alone, parallel, dryRun, tagged, unparsable, commandLine, none });
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  const output = (run: RunOutcome) => `${run.stdout}\n${run.stderr}`;

  it('stores one result per scenario and outline example, with the last attempt’s outcome', async () => {
    const { serial } = runs;
    expect(identities(await resultsTagged(server, 'serial')), output(serial!)).toEqual(
      identities(CUCUMBER_RESULTS),
    );
    expect(testrunLines(serial!.stderr)).toEqual([expect.stringMatching(/^testrun: 20 results → run /)]);
    const [run] = (await server.server.store.runs()).filter((stored) => stored.tags.includes('serial'));
    expect(await shownState(server, run!.id)).toEqual({ api: 'failed', page: 'failed' });
  });

  it('says why every failed scenario failed, an undefined or pending step by naming it, in serial and --parallel runs', async () => {
    for (const tag of ['serial', 'parallel']) {
      const results = await resultsTagged(server, tag);
      expect(unexplainedFailures(results), tag).toEqual([]);
      const said = (testCase: string) => results.find((result) => result.testCase === testCase)?.details;
      expect(said('cart > has an undefined step')).toMatchObject({
        message: expect.stringMatching(/^Undefined step: /),
        location: expect.stringMatching(/^features\/cart\.feature:\d+$/),
      });
      expect(said('cart > totals > supports gift cards')?.message).toMatch(/^Pending step: /);
    }
  });

  it('keeps Cucumber’s exit code and its console output', () => {
    const { serial, alone } = runs;
    expect([serial!.code, alone!.code]).toEqual([1, 1]);
    expect(serial!.stdout).toContain(CUCUMBER_SUMMARY);
    expect(alone!.stdout).toContain(CUCUMBER_SUMMARY);
  });

  it('stores the scenario’s duration from Cucumber’s timestamps', async () => {
    const slow = (await resultsTagged(server, 'serial')).find((r) => r.testCase === 'cart > takes its time');
    // The scenario waits 50 ms in a step; every other one takes a few.
    expect(slow?.duration).toBeGreaterThanOrEqual(45);
  });

  it('stores a --parallel run as one run with the same results: formatters run in the coordinator', async () => {
    const { parallel } = runs;
    expect(identities(await resultsTagged(server, 'parallel')), output(parallel!)).toEqual(
      identities(CUCUMBER_RESULTS),
    );
    expect(parallel!.code).toBe(1);
  });

  it('sends nothing for --dry-run, and says so in one line', async () => {
    const { dryRun } = runs;
    expect((await server.server.store.runs()).filter((run) => run.tags.includes('dry-run'))).toEqual([]);
    expect(testrunLines(dryRun!.stderr)).toEqual(['testrun: dry run: no step ran, so nothing is reported.']);
    expect(dryRun!.code).toBe(0);
  });

  it('stores only the scenarios --tags selects', async () => {
    const { tagged } = runs;
    const selected = CUCUMBER_RESULTS.filter(
      (r) => r.testCase !== 'cart > takes its time' && r.testCase !== 'hooks > passes on its retry',
    );
    expect(identities(await resultsTagged(server, 'tagged')), output(tagged!)).toEqual(identities(selected));
  });

  it('creates an empty run when --tags selects no scenario, as every adapter does for a run without tests', async () => {
    const { none } = runs;
    expect(await resultsTagged(server, 'none')).toEqual([]);
    expect(testrunLines(none!.stderr)).toEqual([expect.stringMatching(/^testrun: 0 results → run /)]);
    expect(none!.code).toBe(0);
  });

  it('fails a feature file Cucumber cannot parse, which stops Cucumber before any scenario', async () => {
    const { unparsable } = runs;
    const stored = await resultsTagged(server, 'unparsable');
    expect(identities(stored), output(unparsable!)).toEqual(
      identities(resultsIn('broken/unparsable.feature', [['(file failed to run)', 'failed']])),
    );
    // Why: Cucumber's parse error, at its line.
    expect(stored[0]?.details).toMatchObject({
      message: expect.stringContaining('This line is no Gherkin'),
      location: expect.stringMatching(/^broken\/unparsable\.feature:\d+:\d+$/),
    });
    expect(unparsable!.code).toBe(1);
  });

  it('takes --format and --format-options on the command line, keeping the console formatter they name', async () => {
    const { commandLine } = runs;
    expect(identities(await resultsTagged(server, 'command-line')), output(commandLine!)).toEqual(
      identities(resultsIn('features/names.feature', [...CUCUMBER_NAMES_RESULTS])),
    );
    expect(commandLine!.stdout).toContain('Scenario: naïve café crème brûlée');
    expect(commandLine!.code).toBe(1);
  });

  it('never prints the API key', () => {
    for (const run of Object.values(runs)) expect(output(run)).not.toContain(server.apiKey);
  });
});
