import path from 'node:path';
import {
  cleanEnv,
  type Framework,
  inPnpmTest,
  reporterEnv,
  runCli,
  runJest,
  runMocha,
  runNodeTest,
  runPlaywright,
  runsLegsOf,
  runVitest,
  startTestServer,
  type TestServer,
  type TimedFile,
  timedSuite,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlock } from '../test/doc-blocks.js';

// `testrun plan` and the sequencers against a real server (docs/sharding.md): a first run
// stores each file's time; four shards asked one after another, while another run lands
// between them, all get the plan the first one made; each runner, given a shard's files as
// the plan prints them, runs exactly those (a printed path that is part of another file's
// path included: `cart.test.js` and `admin/cart.test.js` go to different shards); Vitest's
// and Jest's own --shard follow the plan through their sequencers. That every file is in
// exactly one shard is the planner's (packages/core/test/plan/, packages/server/test/plans/),
// and the split by size without the service too (packages/cli/test/plan.test.ts); the four
// shards of every runner run in compat (pnpm test:compat), and their times in pnpm bench.

const PROJECT = 'shop';
const KEY = 'build-1';
const SHARDS = 4;
const FILES: readonly TimedFile[] = [
  { name: 'cart.test.js', ms: 240 },
  { name: 'admin/cart.test.js', ms: 160 },
  { name: 'search.test.js', ms: 120 },
  { name: 'login.test.js', ms: 90 },
  { name: 'profile.test.js', ms: 60 },
  { name: 'orders.test.js', ms: 40 },
  { name: 'help.test.js', ms: 20 },
  // Not in the first run: added since.
  { name: 'added-since.test.js', ms: 10 },
];
const NAMES = FILES.map((file) => file.name);
const FIRST_RUN = NAMES.filter((name) => name !== 'added-since.test.js');

interface PlanJson {
  shard: string;
  source: 'service' | 'sizes';
  key: string;
  basis: 'durations' | 'sizes';
  reason?: string;
  shards: { shard: number; weight: number; fileCount: number }[];
  files: { path: string; file: string; weight: number; from: string }[];
}

let server: TestServer;
const suites = {} as Record<Framework['name'], string>;
const plans: PlanJson[] = [];
let planLines: string[] = [];

const cliEnv = (extra: Record<string, string> = {}) =>
  cleanEnv({
    TESTRUN_API_KEY: server.apiKey,
    TESTRUN_BASE_URL: server.url,
    TESTRUN_PROJECT: PROJECT,
    ...extra,
  });

async function plan(shard: number, args: string[] = [], env = cliEnv(), files = NAMES) {
  return runCli(['plan', '--shard', `${shard}/${SHARDS}`, ...args, ...files], {
    cwd: suites['node-test'],
    env,
  });
}

/** A completed run of `project` whose files took `ms` each, as a reporter would send it. */
async function landRun(times: Record<string, number>): Promise<void> {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${server.url}/api/v1/runs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ project: PROJECT, framework: 'node-test', tags: [] }),
  });
  const { id } = (await created.json()) as { id: string };
  const results = Object.entries(times).map(([testSuite, duration]) => ({
    testSuite,
    testCase: 'takes a while',
    status: 'passed',
    duration,
  }));
  await fetch(`${server.url}/api/v1/runs/${id}/results`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ results }),
  });
  await fetch(`${server.url}/api/v1/runs/${id}`, {
    method: 'PATCH',
    headers,
    body: '{"status":"completed"}',
  });
}

/** The files each stored run holds results of, by run. */
async function filesOfRun(runId: string): Promise<string[]> {
  return (await server.server.store.results(runId)).map((result) => result.testSuite).sort();
}

/** The one run `framework` stored since `before` (the ids of the runs there were). */
async function onlyRunSince(before: readonly string[], framework: string): Promise<string> {
  const runs = (await server.server.store.runs()).filter(
    (run) => !before.includes(run.id) && run.framework === framework,
  );
  expect(runs).toHaveLength(1);
  return runs[0]!.id;
}

beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['node-test', 'mocha', 'playwright'] as const) suites[name] = timedSuite(name, FILES);
  // Vitest and Jest with docs/sharding.md's configs, as they are: the reporter and the sequencer.
  suites.vitest = timedSuite('vitest', FILES, { 'vitest.config.ts': docBlock('sharding-vitest-config') });
  suites.jest = timedSuite('jest', FILES, { 'jest.config.js': docBlock('sharding-jest-config') });
  // The first run, as a reporter sends it (which names the reporters give files is what the
  // runner runs below hold to the plan's names): each file's time, all but the one added since.
  await landRun(
    Object.fromEntries(
      FILES.filter(({ name }) => FIRST_RUN.includes(name)).map(({ name, ms }) => [name, ms]),
    ),
  );
  // Shard 1 asks, then a run lands that would turn the plan around, then the other shards ask.
  const asked = [await plan(1, ['--plan-key', KEY, '--format', 'json'])];
  await landRun(Object.fromEntries(FIRST_RUN.map((name, index) => [name, 10 + 60 * index])));
  for (let shard = 2; shard <= SHARDS; shard++)
    asked.push(await plan(shard, ['--plan-key', KEY, '--format', 'json']));
  for (const { code, stdout, stderr } of asked) {
    expect(code, stderr).toBe(0);
    plans.push(JSON.parse(stdout) as PlanJson);
  }
  planLines = asked.map(({ stderr }) => stderr);
}, 120_000);

afterAll(() => server?.close());

/** The shard whose plan holds `name`, from 1. */
const shardOf = (name: string) =>
  plans.findIndex((shard) => shard.files.some((file) => file.file === name)) + 1;
const filesOf = (shard: number) => plans[shard - 1]!.files.map((file) => file.path);

if (inPnpmTest())
  describe('testrun plan', () => {
    it("gives every shard the plan the first one made from the service's durations, though a run landed between them", async () => {
      for (const shard of plans) {
        expect(shard).toMatchObject({ source: 'service', key: KEY, basis: 'durations' });
        expect(shard.shards).toEqual(plans[0]!.shards);
      }
      expect(planLines[1]).toMatch(
        new RegExp(
          `^testrun plan: plan "${KEY}" from the service's durations: shard 2/4 runs \\d files of 8, ~`,
        ),
      );
      // Every file in exactly one shard, and the two carts apart (the printed-path case below).
      expect(plans.flatMap((shard) => shard.files.map((file) => file.file)).sort()).toEqual(
        [...NAMES].sort(),
      );
      expect(shardOf('cart.test.js')).not.toBe(shardOf('admin/cart.test.js'));
      // The run that landed did change what a new plan would be: the stored one held.
      const fresh = await fetch(`${server.url}/api/v1/plans`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          key: 'build-2',
          project: PROJECT,
          shardCount: SHARDS,
          files: NAMES.map((file) => ({ file, size: 1 })),
        }),
      });
      expect(fresh.status).toBe(201);
      expect(((await fresh.json()) as PlanJson).shards).not.toEqual(plans[0]!.shards);
    });

    it('places a file added since the last run, at the median of the others', () => {
      const placed = plans
        .flatMap((shard) => shard.files)
        .filter((file) => file.file === 'added-since.test.js');
      expect(placed).toEqual([expect.objectContaining({ from: 'unseen' })]);
      const known = plans
        .flatMap((shard) => shard.files)
        .filter((file) => file.file !== 'added-since.test.js');
      expect(new Set(known.map((file) => file.from))).toEqual(new Set(['project']));
    });

    it('tells a shard given other files than its plan, and prints none', async () => {
      const { code, stdout, stderr } = await plan(
        3,
        ['--plan-key', KEY],
        cliEnv(),
        NAMES.filter((name) => name !== 'help.test.js'),
      );
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        /^testrun plan: plan "build-1" of project "shop" for 4 shards was made, at .*, for other files than this shard was given: this shard lacks 1 of the plan's files \("help\.test\.js"\)\. Every shard/,
      );
    });
  });

if (runsLegsOf('playwright'))
  describe('a runner given the files printed for its shard runs exactly those', () => {
    const shard = () => shardOf('cart.test.js');
    const env = () =>
      reporterEnv(server, {
        TESTRUN_PROJECT: PROJECT,
        TESTRUN_SHARD: `${shard()}/${SHARDS}`,
        TESTRUN_PLAN_KEY: KEY,
      });
    const expected = () => filesOf(shard()).sort();

    it.concurrent.each([
      ['node --test', runNodeTest, 'node-test'],
      ['Mocha', runMocha, 'mocha'],
    ] as const)('%s', async (_name, run, suite) => {
      const before = (await server.server.store.runs()).map((stored) => stored.id);
      const outcome = await run({ cwd: suites[suite], args: filesOf(shard()), env: env() });
      expect(outcome.code, outcome.stderr + outcome.stdout).toBe(0);
      expect(await filesOfRun(await onlyRunSince(before, suite))).toEqual(expected());
    });

    it('Playwright, given them as exact filters (--format playwright)', async () => {
      const printed = await runCli(
        ['plan', '--shard', `${shard()}/${SHARDS}`, '--plan-key', KEY, '--format', 'playwright', ...NAMES],
        { cwd: suites.playwright, env: cliEnv() },
      );
      expect(printed.code, printed.stderr).toBe(0);
      const filters = printed.stdout.trim().split('\n');
      expect(filters).toContain(
        `/^${path.join(suites.playwright, 'cart.test.js').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`,
      );
      const before = (await server.server.store.runs()).map((stored) => stored.id);
      const outcome = await runPlaywright({ cwd: suites.playwright, args: filters, env: env() });
      expect(outcome.code, outcome.stderr + outcome.stdout).toBe(0);
      const runId = await onlyRunSince(before, 'playwright');
      expect(await filesOfRun(runId)).toEqual(expected());
      // The run's page shows the shard beside its plan: what it was planned, what it took.
      const page = await (await fetch(`${server.url}/runs/${runId}`)).text();
      expect(page).toMatch(
        new RegExp(
          `<tr><td>${shard()}/4</td><td class="num">${expected().length}</td><td class="num">[\\d.]+ ms</td>`,
        ),
      );
      expect(page).toContain(`plan <code>${KEY}</code>`);
    });
  });

if (runsLegsOf('vitest'))
  describe("Vitest's and Jest's own --shard, balanced by their sequencers", () => {
    // The configs as docs/sharding.md has them; the run in one process (one worker, no
    // isolation), as the lean fixtures run: the files are two, and workers are what a run costs.
    it.concurrent.each([
      ['Vitest', runVitest, 'vitest', ['--no-isolate', '--maxWorkers=1']],
      ['Jest', runJest, 'jest', ['--runInBand']],
    ] as const)('%s runs the files the plan gives shard 2', async (_name, run, suite, lean) => {
      const before = (await server.server.store.runs()).map((stored) => stored.id);
      const outcome = await run({
        cwd: suites[suite],
        args: ['--shard=2/4', ...lean],
        env: reporterEnv(server, { TESTRUN_PROJECT: PROJECT, TESTRUN_PLAN_KEY: KEY }),
      });
      expect(outcome.code, outcome.stderr + outcome.stdout).toBe(0);
      expect(outcome.stderr + outcome.stdout).toContain(
        `testrun: plan "${KEY}" from the service's durations: shard 2/4 runs`,
      );
      expect(await filesOfRun(await onlyRunSince(before, suite))).toEqual(filesOf(2).sort());
    });
  });
