import type { TestrunServer } from '@testrun/server';
import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { Retention } from '../../src/ledger/retention.js';
import { fileOf } from '../../src/plans/file-durations.js';
import { createRun, get, patch, post, serverOn } from '../client.js';

// POST /api/v1/plans (docs/design/shard-plans.md#the-same-plan-for-every-shard): the first shard of
// a build makes the plan from the stored durations, every later one is answered the same, whatever
// landed meanwhile; another list of files is 409, naming the difference. On SQLite and a real
// PostgreSQL.

const PROJECT = 'shop';

/** A run of `times` (file → its results' durations), ended (or not) and tagged as given. */
async function landRun(
  server: TestrunServer,
  times: Record<string, number | number[]>,
  { tags = [] as string[], end = true, project = PROJECT } = {},
): Promise<string> {
  const runId = await createRun(server, { project, framework: 'vitest', tags });
  const results = Object.entries(times).flatMap(([testSuite, durations]) =>
    [durations]
      .flat()
      .map((duration, index) => ({ testSuite, testCase: `test ${index}`, status: 'passed', duration })),
  );
  const added = await post(server, `/api/v1/runs/${runId}/results`, { results });
  expect(added.status).toBe(201);
  if (end) expect((await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' })).status).toBe(200);
  return runId;
}

interface PlanAnswer {
  key: string;
  basis: 'durations' | 'sizes';
  shards: { shard: number; weight: number; fileCount: number }[];
  files: { file: string; shard: number; weight: number; from: string }[];
}

function askPlan(server: TestrunServer, files: Record<string, number> | string[], more: object = {}) {
  const list = Array.isArray(files)
    ? files.map((file) => ({ file, size: 100 }))
    : Object.entries(files).map(([file, size]) => ({ file, size }));
  return post(server, '/api/v1/plans', {
    key: 'build-7',
    project: PROJECT,
    shardCount: 2,
    files: list,
    ...more,
  });
}

const weights = (answer: { body: unknown }) =>
  Object.fromEntries(
    (answer.body as PlanAnswer).files.map(({ file, weight, from }) => [file, [weight, from]]),
  );

describe.each(storeEngines())('shard plans on $name', (engine) => {
  const startServer = serverOn(engine);

  it('makes the plan from durations, longest first onto the least loaded shard, and answers it again the same after a run lands', async () => {
    const server = await startServer();
    await landRun(server, { 'a.test.js': 900, 'b.test.js': 500, 'c.test.js': 400, 'd.test.js': 300 });
    const files = ['a.test.js', 'b.test.js', 'c.test.js', 'd.test.js'];
    const first = await askPlan(server, files);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      key: 'build-7',
      project: PROJECT,
      shardCount: 2,
      basis: 'durations',
      shards: [
        { shard: 1, weight: 1200, fileCount: 2 },
        { shard: 2, weight: 900, fileCount: 2 },
      ],
      files: [
        { file: 'a.test.js', shard: 1, weight: 900, from: 'project' },
        { file: 'd.test.js', shard: 1, weight: 300, from: 'project' },
        { file: 'b.test.js', shard: 2, weight: 500, from: 'project' },
        { file: 'c.test.js', shard: 2, weight: 400, from: 'project' },
      ],
    });
    // A run that would turn the plan around lands; the key's plan stays, for every shard.
    await landRun(server, { 'a.test.js': 10, 'b.test.js': 10, 'c.test.js': 5000, 'd.test.js': 5000 });
    const again = await askPlan(server, [...files].reverse(), { shard: 2 });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      ...(first.body as object),
      files: (first.body as PlanAnswer).files.filter((file) => file.shard === 2),
    });
    // A new key plans from what is stored now (the median of the file's last runs).
    const fresh = await askPlan(server, files, { key: 'build-8' });
    expect(weights(fresh)).toMatchObject({ 'c.test.js': [2700, 'project'], 'a.test.js': [455, 'project'] });
  });

  it('tells a request with other files than the plan which ones, with 409', async () => {
    const server = await startServer();
    expect((await askPlan(server, ['a.test.js', 'b.test.js', 'c.test.js'])).status).toBe(201);
    const other = await askPlan(server, ['a.test.js', 'c.test.js', 'x.test.js', 'y.test.js']);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      error: {
        code: 'plan_files_differ',
        message: expect.stringMatching(
          /^plan "build-7" of project "shop" for 2 shards was made, at .*Z, for other files than this shard was given: this shard lacks 1 of the plan's files \("b\.test\.js"\) and has 2 the plan does not \("x\.test\.js", "y\.test\.js"\)\. Every shard of a plan must be given the same files .*\(--plan-key, TESTRUN_PLAN_KEY\)\.$/,
        ),
      },
    });
    // Another shard count is another plan; another project too.
    expect((await askPlan(server, ['x.test.js'], { shardCount: 3 })).status).toBe(201);
    expect((await askPlan(server, ['x.test.js'], { project: 'web' })).status).toBe(201);
  });

  it("weighs a file by its recent time: the branch's runs first, then the default branch's, then the project's; every label and the typecheck run summed; runs under way left out; a file never seen at the median; none seen, by size", async () => {
    const server = await startServer();
    // One project per case, on one server.
    const levels = { project: 'levels' };
    await landRun(
      server,
      { 'a.test.js': 7000, 'b.test.js': 7000, 'c.test.js': 7000 },
      { ...levels, tags: ['branch:main'] },
    );
    await landRun(server, { 'b.test.js': 2000, 'c.test.js': 2000 }, { ...levels, tags: ['branch:feature'] });
    await landRun(server, { 'c.test.js': 100, 'e.test.js': 50 }, { ...levels, tags: ['branch:other'] });
    const fromLevels = await askPlan(
      server,
      ['a.test.js', 'b.test.js', 'c.test.js', 'd.test.js', 'e.test.js'],
      {
        ...levels,
        branch: 'feature',
        defaultBranch: 'main',
      },
    );
    expect(weights(fromLevels)).toEqual({
      // Its newest run on the branch comes first; older ones fill the last five.
      'b.test.js': [4500, 'branch'],
      'c.test.js': [2000, 'branch'],
      'a.test.js': [7000, 'default-branch'],
      'e.test.js': [50, 'project'],
      'd.test.js': [3250, 'unseen'],
    });

    const labels = { project: 'labels' };
    for (const duration of [100, 200, 300, 400, 500, 600]) {
      await landRun(
        server,
        {
          'a.test.ts': duration,
          '[node] b.test.ts': [duration, duration],
          '[browser] b.test.ts': duration,
          'b.test.ts (typecheck)': 1,
        },
        labels,
      );
    }
    // A run still under way holds files half run: not counted.
    await landRun(server, { 'a.test.ts': 99_999 }, { ...labels, end: false });
    const fromLabels = await askPlan(server, ['a.test.ts', 'b.test.ts'], labels);
    expect(weights(fromLabels)).toEqual({ 'a.test.ts': [400, 'project'], 'b.test.ts': [1201, 'project'] });

    // Nothing of these files seen in their project (another's runs do not count): their sizes.
    const bySize = await askPlan(
      server,
      { 'a.test.js': 3000, 'b.test.js': 1000, 'c.test.js': 1500, 'empty.test.js': 0 },
      { project: 'new' },
    );
    expect(bySize.status).toBe(201);
    expect(bySize.body).toMatchObject({
      basis: 'sizes',
      shards: [
        { shard: 1, weight: 3000, fileCount: 1 },
        { shard: 2, weight: 2501, fileCount: 3 },
      ],
    });
    expect(weights(bySize)['empty.test.js']).toEqual([1, 'size']);
  });

  it('stores one plan when shards ask at the same moment', async () => {
    const server = await startServer();
    await landRun(server, { 'a.test.js': 10, 'b.test.js': 20 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => askPlan(server, ['a.test.js', 'b.test.js', 'c.test.js'])),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
  });

  it("records each shard's results from the Testrun-Shard header, and the run page sets them beside the plan", async () => {
    const server = await startServer();
    await landRun(server, { 'a.test.js': 3000, 'b.test.js': 1000, 'c.test.js': 1000 });
    await askPlan(server, ['a.test.js', 'b.test.js', 'c.test.js']);
    const runId = await createRun(server);
    const send = (shard: string, results: object[]) =>
      post(
        server,
        `/api/v1/runs/${runId}/results`,
        { results },
        {
          headers: { 'testrun-shard': shard, 'testrun-plan-key': 'build-7' },
        },
      );
    const result = (testSuite: string, duration: number) => ({
      testSuite,
      testCase: 't',
      status: 'passed',
      duration,
    });
    expect((await send('1/2', [result('a.test.js', 2500)])).status).toBe(201);
    expect((await send('2/2', [result('b.test.js', 1200)])).status).toBe(201);
    expect((await send('2/2', [result('c.test.js', 800)])).status).toBe(201);
    // Not its form: stored as any batch is, counted under no shard.
    expect((await send('3/2', [result('d.test.js', 1)])).status).toBe(201);
    const page = (await get(server, `/runs/${runId}`)).text;
    expect(page).toContain('<h2 id="shards">Shards (2)</h2>');
    expect(page).toMatch(
      /<tr><td>1\/2<\/td><td class="num">1<\/td><td class="num">3\.0 s<\/td><td class="num">2\.5 s<\/td>/,
    );
    expect(page).toMatch(
      /<tr><td>2\/2<\/td><td class="num">2<\/td><td class="num">2\.0 s<\/td><td class="num">2\.0 s<\/td>/,
    );
    expect(page).toContain('plan <code>build-7</code>');
    // A run without shards has no such table.
    const plain = await landRun(server, { 'a.test.js': 1 });
    expect((await get(server, `/runs/${plain}`)).text).not.toContain('id="shards"');
  });

  it('counts a retried batch once in its shard, and removes shards and plans with retention', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const body = { results: [{ testSuite: 'a.test.js', testCase: 't', status: 'passed', duration: 5 }] };
    const headers = { 'testrun-shard': '1/3', 'idempotency-key': 'batch-1' };
    for (let i = 0; i < 2; i++) {
      expect((await post(server, `/api/v1/runs/${runId}/results`, body, { headers })).status).toBe(201);
    }
    expect((await get(server, `/runs/${runId}`)).text).toMatch(
      /<tr><td>1\/3<\/td><td class="num">1<\/td><td class="num">–<\/td><td class="num">5\.0 ms<\/td>/,
    );
    await askPlan(server, ['a.test.js']);
    await Retention.paused(server.store, 1).runOnce(Date.now() + 2 * 86_400_000);
    const count = async (table: string) =>
      Number((await server.store.db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
    expect(await count('shard_plans')).toBe(0);
    expect(await count('run_shards')).toBe(0);
  });
});

describe('the plan route, on one engine: its checks come before the store', () => {
  const [engine] = storeEngines();
  const startServer = serverOn(engine!);

  it('refuses what the schema and the rules do not take, with 400 naming the problem', async () => {
    const server = await startServer();
    for (const [change, message] of [
      [{ shard: 3 }, /^shard 3 is above shardCount 2$/],
      [
        {
          files: [
            { file: 'a.js', size: 1 },
            { file: 'a.js', size: 2 },
          ],
        },
        /^files\/1\/file repeats "a\.js": name each file once$/,
      ],
      [{ files: [] }, /files/],
      [{ key: ' padded' }, /key/],
      [{ files: [{ file: 'a\u0000.js', size: 1 }] }, /^files\/0\/file contains NUL/],
    ] as const) {
      const answer = await askPlan(server, ['a.js'], change);
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body).toMatchObject({
        error: { code: 'invalid_request', message: expect.stringMatching(message) },
      });
    }
  });

  it('is 404 at a server started without shard plans, as at a service without it, and announced only with them', async () => {
    const server = await startServer({ shardPlans: false });
    expect((await askPlan(server, ['a.js'])).status).toBe(404);
    const created = await post(server, '/api/v1/runs', { project: 'p', framework: 'f' });
    expect((created.body as { extensions: string[] }).extensions).toEqual([
      'failure-details',
      'complete-run',
      'read-runs',
      'attachments',
      'quarantine',
    ]);
    const planning = await startServer();
    const announced = await post(planning, '/api/v1/runs', { project: 'p', framework: 'f' });
    expect((announced.body as { extensions: string[] }).extensions).toEqual([
      'failure-details',
      'complete-run',
      'read-runs',
      'shard-plans',
      'attachments',
      'quarantine',
    ]);
  });
});

describe('fileOf', () => {
  it.each([
    ['src/a.test.ts', 'src/a.test.ts'],
    ['[node] src/a.test.ts', 'src/a.test.ts'],
    ['src/a.test.ts (typecheck)', 'src/a.test.ts'],
    ['[web app] src/a.test-d.ts (typecheck)', 'src/a.test-d.ts'],
    ['[a]b.test.ts', '[a]b.test.ts'],
  ])('%s names the file %s', (testSuite, file) => {
    expect(fileOf(testSuite)).toBe(file);
  });
});
