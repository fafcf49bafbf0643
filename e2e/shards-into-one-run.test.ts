import fs from 'node:fs';
import path from 'node:path';
import {
  frameworksHere,
  identities,
  PARITY_REPORTER_OPTIONS,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  runCli,
  shownState,
  startTestServer,
  type TestServer,
  tempDir,
  testrunLines,
  unexplainedFailures,
} from '@testrun/test-utils';
import { readSummary } from '@testrun/test-utils/gfm';
import { beforeEach, expect, it } from 'vitest';

// The CI recipe for shards (docs/ci.md): one job creates the run with `testrun create-run`,
// each shard reports into it through TESTRUN_RUN_ID, a job after them completes it with
// `testrun complete-run`, which writes the CI summary of the whole run (and, for Vitest,
// `testrun summary --run` does too). Three shards of the parity fixture must add up to exactly
// what one unsharded run stores (each framework: its own form of the fixture; Mocha: each job
// runs a share of the files), every failed test with why it failed, as an unsharded run's are.
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

it.each(frameworksHere())(
  '$name: three shards fill the one run testrun create-run made',
  async (framework) => {
    const { name, run, fixtures, parityResults } = framework;
    const created = await runCli(['create-run', '--project', 'P', '--framework', name], { env: cliEnv() });
    expect(created.code, created.stderr).toBe(0);
    // The run as create-run prints it: its id, and what the service announced, for the shards.
    const handle = created.stdout.trim();
    const runId = handle.split(';')[0]!;
    expect(handle).toBe(
      `${runId};extensions=failure-details,complete-run,read-runs,attachments,quarantine;attachment-limits=104857600/1073741824`,
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
    const summaries = tempDir('testrun-shard-summary-');
    const stepSummary = path.join(summaries, 'complete-run.md');
    const completed = await runCli(['complete-run', '--status', 'failed'], {
      env: { ...cliEnv(), TESTRUN_RUN_ID: handle, GITHUB_STEP_SUMMARY: stepSummary },
    });
    expect(completed.stdout, completed.stderr).toBe(`testrun complete-run: run ${runId} completed: failed\n`);
    expect(await shownState(server, runId)).toEqual({ api: 'failed', page: 'failed' });

    // The job that completed the run summarized all of it, read from the service.
    const expected = await summaryOfStored(runId);
    expect(readSummary(fs.readFileSync(stepSummary, 'utf8'))).toMatchObject(expected);
    if (name === 'vitest') {
      // The recipe's other way: `testrun summary` in the job after the shards, the same summary.
      const alone = path.join(summaries, 'summary.md');
      const summarized = await runCli(['summary', '--run', handle], {
        env: { ...cliEnv(), GITHUB_STEP_SUMMARY: alone },
      });
      expect(summarized.code, summarized.stderr).toBe(0);
      expect(readSummary(fs.readFileSync(alone, 'utf8'))).toMatchObject(expected);
      expect(fs.readFileSync(alone, 'utf8').match(/^### /gm)).toHaveLength(1);
      // Each failed test's link lands on its row of the run's page.
      const page = await (await fetch(`${server.url}/runs/${runId}`)).text();
      for (const { href } of readSummary(fs.readFileSync(alone, 'utf8')).tables['Why it failed']!) {
        expect(page).toContain(`<tr class="test" id="${href!.split('#')[1]}"`);
      }
    }
  },
);

/** What the summary of the stored run shows: its state, its counts, and each failed test's first line of why. */
async function summaryOfStored(runId: string) {
  const stored = await server.server.store.results(runId);
  const counts: Record<string, number> = { tests: stored.length };
  for (const result of stored) counts[result.status] = (counts[result.status] ?? 0) + 1;
  const failed = stored.filter((result) => result.status === 'failed');
  const firstLine = (text = '') =>
    text
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? '';
  return {
    heading: expect.stringMatching(/: failed$/),
    counts: expect.objectContaining(counts),
    tables: expect.objectContaining({
      'Why it failed': failed.slice(0, 10).map((result) => ({
        cells: [result.testCase, result.testSuite, firstLine(result.details?.message)].map((text) =>
          text.replace(/\s+/g, ' ').trim(),
        ),
        href: expect.stringMatching(new RegExp(`^${server.url}/runs/${runId}#test-[0-9a-f]{12}(-\\d+)?$`)),
      })),
    }),
  };
}
