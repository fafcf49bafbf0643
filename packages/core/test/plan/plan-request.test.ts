import { startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/delivery/deadline.js';
import { HttpClient } from '../../src/http/client.js';
import { type PlanRequest, readPlan, requestPlan } from '../../src/plan/plan-request.js';

// The plan operation against a real server: its answers, a service without the operation,
// a refusal, faults, and answers that are no plan. Anything but a plan, or the 409 that
// says the files differ, leaves the shard to split by size.

const request: PlanRequest = {
  key: 'build-1',
  project: 'shop',
  shardCount: 2,
  shard: 1,
  files: [
    { file: 'a.test.js', size: 300 },
    { file: 'b.test.js', size: 200 },
    { file: 'c.test.js', size: 100 },
  ],
};
const POLICY = { maxRetries: 2, requestTimeout: 5_000, random: () => 0 };

async function ask(url: string, apiKey: string, body: PlanRequest = request) {
  const http = new HttpClient({ baseUrl: url, apiKey, userAgent: 'testrun-test', env: {} });
  const deadline = new Deadline();
  deadline.start(20_000);
  try {
    return await requestPlan(http, body, POLICY, deadline);
  } finally {
    deadline.dispose();
    await http.close();
  }
}

describe('requestPlan', () => {
  it("answers the service's plan: made by this request first, stored after", async () => {
    const { url, apiKey } = await startTestServer();
    const first = await ask(url, apiKey);
    expect(first).toMatchObject({
      kind: 'plan',
      plan: {
        key: 'build-1',
        basis: 'sizes',
        stored: false,
        shards: [
          { shard: 1, weight: 300, fileCount: 1 },
          { shard: 2, weight: 300, fileCount: 2 },
        ],
        files: [{ file: 'a.test.js', shard: 1, weight: 300, from: 'size' }],
      },
    });
    expect(await ask(url, apiKey, { ...request, shard: 2 })).toMatchObject({
      kind: 'plan',
      plan: { stored: true, files: [{ file: 'b.test.js' }, { file: 'c.test.js' }] },
    });
  });

  it("says the files differ in the service's words, asking once", async () => {
    const server = await startTestServer();
    await ask(server.url, server.apiKey);
    const answer = await ask(server.url, server.apiKey, { ...request, files: request.files.slice(1) });
    expect(answer).toEqual({
      kind: 'differs',
      message: expect.stringContaining('this shard lacks 1 of the plan\'s files ("a.test.js")'),
    });
    expect(server.server.requests.filter((r) => r.route === 'createPlan')).toHaveLength(2);
  });

  it('finds no plans at a service without the operation', async () => {
    const { url, apiKey } = await startTestServer({ shardPlans: false });
    expect(await ask(url, apiKey)).toEqual({
      kind: 'no-plans',
      reason: 'the service makes no shard plans (/api/v1/plans answered 404)',
    });
  });

  it('retries a failing service as every request is, then takes its plan', async () => {
    const server = await startTestServer({
      faults: ({ route, n }) => (route === 'createPlan' && n < 2 ? { status: 503 } : undefined),
    });
    expect(await ask(server.url, server.apiKey)).toMatchObject({ kind: 'plan' });
    expect(server.server.requests.filter((r) => r.route === 'createPlan')).toHaveLength(3);
  });

  it('gives up on a refused key at once, saying so without the key', async () => {
    const { url } = await startTestServer();
    const answer = await ask(url, 'not-the-key');
    expect(answer).toEqual({ kind: 'failed', reason: 'the service refused TESTRUN_API_KEY (401)' });
  });

  it.each([
    [
      'is not JSON',
      '<html>sign in</html>',
      /^the service's answer is no plan: not JSON: <html>sign in<\/html>$/,
    ],
    [
      'leaves a file out',
      {
        basis: 'sizes',
        shards: [
          { shard: 1, weight: 1, fileCount: 1 },
          { shard: 2, weight: 1, fileCount: 1 },
        ],
        files: [],
      },
      /its shards hold 2 files where 3 were given$/,
    ],
    [
      'places a file twice',
      {
        basis: 'durations',
        shards: [
          { shard: 1, weight: 1, fileCount: 2 },
          { shard: 2, weight: 1, fileCount: 1 },
        ],
        files: [
          { file: 'a.test.js', shard: 1 },
          { file: 'a.test.js', shard: 1 },
        ],
      },
      /it places "a\.test\.js" twice$/,
    ],
    [
      "lists another shard's file",
      {
        basis: 'durations',
        shards: [
          { shard: 1, weight: 1, fileCount: 1 },
          { shard: 2, weight: 1, fileCount: 2 },
        ],
        files: [{ file: 'b.test.js', shard: 2 }],
      },
      /it lists "b\.test\.js" of shard 2 for shard 1$/,
    ],
  ])('refuses an answer that %s', async (_case, body, reason) => {
    const { url, apiKey } = await startTestServer({
      faults: ({ route }) => (route === 'createPlan' ? { status: 201, body } : undefined),
    });
    expect(await ask(url, apiKey)).toEqual({ kind: 'failed', reason: expect.stringMatching(reason) });
  });

  it('gives up on a service that cannot be reached', async () => {
    const answer = await ask('http://127.0.0.1:9', 'key');
    expect(answer).toEqual({
      kind: 'failed',
      reason: expect.stringMatching(
        /^no plan from the service: POST http:\/\/127\.0\.0\.1:9\/api\/v1\/plans failed: ECONNREFUSED/,
      ),
    });
  });
});

describe('readPlan', () => {
  it('reads a whole plan when no shard is asked for', () => {
    const all = {
      key: 'k',
      project: 'p',
      basis: 'sizes',
      createdAt: 't',
      shards: [
        { shard: 1, weight: 300, fileCount: 1 },
        { shard: 2, weight: 300, fileCount: 2 },
      ],
      files: [
        { file: 'a.test.js', shard: 1, weight: 300, from: 'size' },
        { file: 'b.test.js', shard: 2, weight: 200, from: 'size' },
        { file: 'c.test.js', shard: 2, weight: 100, from: 'size' },
      ],
    };
    expect(readPlan(JSON.stringify(all), { ...request, shard: undefined })).toMatchObject({
      files: all.files,
    });
    expect(readPlan(JSON.stringify({ ...all, shards: all.shards.slice(1) }), request)).toBe(
      '1 shards where 2 were asked for',
    );
    expect(readPlan(JSON.stringify({ ...all, basis: 'vibes' }), request)).toBe('basis "vibes"');
  });
});
