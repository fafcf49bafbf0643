import path from 'node:path';
import { RunReporter } from '@testrun/core';
import { startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/options/config.js';

// A reporter that knows its shard (the runner's --shard, or TESTRUN_SHARD for a runner given the
// files `testrun plan` printed) says which with every request, and the plan key its shards share:
// the run page sets each shard's time beside its plan
// (docs/design/shard-plans.md#which-shard-results-came-from).

const root = path.resolve('/repo');

async function reportedRun(env: NodeJS.ProcessEnv, shard?: { index: number; count: number }) {
  const { server, url, apiKey } = await startTestServer();
  const reporter = new RunReporter({
    options: { apiKey, baseUrl: url, project: 'shop', ciTags: false },
    framework: { name: 'mocha', version: '11.0.0' },
    rootDir: root,
    env,
    shard,
    write: () => {},
  });
  reporter.startRun();
  reporter.addFile({
    file: path.join(root, 'a.test.js'),
    tests: [{ titles: ['t'], status: 'passed', duration: 40 }],
  });
  const summary = await reporter.endRun();
  const rows = await server.store.db.query(
    'SELECT shard_index, shard_count, plan_key, results, duration FROM run_shards',
  );
  return {
    rows: rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]),
      ),
    ),
    summary,
  };
}

describe("a sharded reporter's requests", () => {
  it('say the shard TESTRUN_SHARD names, and the plan key', async () => {
    const { rows, summary } = await reportedRun({ TESTRUN_SHARD: '2/4', TESTRUN_PLAN_KEY: 'build-9' });
    expect(summary).toMatchObject({ delivered: 1 });
    expect(rows).toEqual([{ shard_index: 2, shard_count: 4, plan_key: 'build-9', results: 1, duration: 40 }]);
  });

  it("say the runner's own shard, with the key the build gives", async () => {
    const env = { GITHUB_ACTIONS: 'true', GITHUB_RUN_ID: '5', GITHUB_REPOSITORY: 'o/r', GITHUB_JOB: 'test' };
    const { rows } = await reportedRun(env, { index: 3, count: 3 });
    expect(rows).toEqual([
      { shard_index: 3, shard_count: 3, plan_key: 'github:5:o/r:test', results: 1, duration: 40 },
    ]);
  });

  it('say nothing of shards in a run that is none', async () => {
    expect((await reportedRun({})).rows).toEqual([]);
  });
});

describe('the shard and planKey options', () => {
  it.each([
    ['TESTRUN_SHARD', '5/4', 'option TESTRUN_SHARD must have an index from 1 to its count, got "5/4".'],
    ['TESTRUN_SHARD', 'two', 'option TESTRUN_SHARD must be <index>/<count>, e.g. 2/4, got "two".'],
    [
      'TESTRUN_PLAN_KEY',
      'naïve',
      'option TESTRUN_PLAN_KEY must be 1 to 200 visible ASCII characters (spaces inside only), got "naïve".',
    ],
  ])('refuse %s=%s, naming it and the form', (name, value, message) => {
    const resolution = resolveConfig({
      options: { apiKey: 'k', baseUrl: 'http://localhost:1' },
      env: { [name]: value },
      rootDir: root,
    });
    expect(resolution).toMatchObject({ state: 'invalid', errors: [{ option: name, message }] });
  });

  it('take a shard and a key', () => {
    const resolution = resolveConfig({
      options: { apiKey: 'k', baseUrl: 'http://localhost:1', shard: ' 1/2 ', planKey: 'b-1' },
      env: {},
      rootDir: root,
    });
    expect(resolution).toMatchObject({ state: 'enabled', config: { shard: '1/2', planKey: 'b-1' } });
  });
});
