import { describe, expect, it } from 'vitest';
import { createRun, get, post, result, startServer } from './client.js';

// The `failure-details` extension on the local server (docs/design/failure-details.md#the-local-server):
// announced by create-run, validated as strictly as the four fields, stored and shown.

const failed = (details: object, overrides: object = {}) =>
  result({ status: 'failed', testCase: 'cart > adds', details, ...overrides });

describe('create-run', () => {
  it('announces the extensions in its answer: why a test failed, completing the run, reading it back, shard plans, files with their limits, and quarantine', async () => {
    const server = await startServer();
    const answer = await post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' });
    expect(answer.body).toMatchObject({
      extensions: [
        'failure-details',
        'complete-run',
        'read-runs',
        'shard-plans',
        'attachments',
        'quarantine',
      ],
      attachments: { maxFileBytes: 100 * 1024 * 1024, maxRunBytes: 1024 * 1024 * 1024 },
    });
  });

  it('announces each only when the server is started with it, and nothing without any', async () => {
    const withoutDetails = await startServer({ failureDetails: false });
    const withoutEnd = await startServer({ completeRun: false });
    const withoutReads = await startServer({ readRuns: false });
    const withoutPlans = await startServer({ shardPlans: false });
    const withoutFiles = await startServer({ attachments: false });
    const withoutQuarantine = await startServer({ quarantine: false });
    const specOnly = await startServer({
      failureDetails: false,
      completeRun: false,
      readRuns: false,
      shardPlans: false,
      attachments: false,
      quarantine: false,
    });
    const create = (server: typeof specOnly) =>
      post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' });
    expect((await create(withoutDetails)).body).toMatchObject({
      extensions: ['complete-run', 'read-runs', 'shard-plans', 'attachments', 'quarantine'],
    });
    expect((await create(withoutEnd)).body).toMatchObject({
      extensions: ['failure-details', 'read-runs', 'shard-plans', 'attachments', 'quarantine'],
    });
    expect((await create(withoutReads)).body).toMatchObject({
      extensions: ['failure-details', 'complete-run', 'shard-plans', 'attachments', 'quarantine'],
    });
    expect((await create(withoutPlans)).body).toMatchObject({
      extensions: ['failure-details', 'complete-run', 'read-runs', 'attachments', 'quarantine'],
    });
    const noFiles = (await create(withoutFiles)).body;
    expect(noFiles).toMatchObject({
      extensions: ['failure-details', 'complete-run', 'read-runs', 'shard-plans', 'quarantine'],
    });
    expect(noFiles).not.toHaveProperty('attachments');
    expect((await create(withoutQuarantine)).body).toMatchObject({
      extensions: ['failure-details', 'complete-run', 'read-runs', 'shard-plans', 'attachments'],
    });
    expect((await create(specOnly)).body).not.toHaveProperty('extensions');
  });
});

describe('the results route', () => {
  it('stores a failed result’s details and gives them back', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const details = {
      message: 'expected 1 to be 2',
      stack: 'Error\n  at x',
      location: 'src/a.test.ts:3:9',
      attempts: 2,
    };
    const answer = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [failed(details), result()],
    });
    expect(answer.status).toBe(201);
    const stored = (await get(server, `/api/v1/runs/${runId}/results`)).body as object[];
    expect(stored[0]).toMatchObject({ status: 'failed', details });
    expect(stored[1]).not.toHaveProperty('details');
  });

  it.each([
    ['a message that is not a string', { message: 3 }, 'results/0/details/message must be string'],
    [
      'a message past 4,096 characters',
      { message: 'm'.repeat(4_097) },
      'results/0/details/message must NOT have more than 4096 characters',
    ],
    [
      'a stack past 16,384 characters',
      { stack: 's'.repeat(16_385) },
      'results/0/details/stack must NOT have more than 16384 characters',
    ],
    ['an empty location', { location: '' }, 'results/0/details/location must not be empty'],
    ['attempts that are not a whole number', { attempts: 1.5 }, 'results/0/details/attempts must be integer'],
    ['zero attempts', { attempts: 0 }, 'results/0/details/attempts must be >= 1'],
    ['a field it does not know', { why: 'x' }, 'results/0/details/why is not an allowed field'],
    ['details that are not an object', 'boom', 'results/0/details must be object'],
  ])('answers 400 for %s', async (_, details, message) => {
    const server = await startServer();
    const runId = await createRun(server);
    const answer = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [failed(details as object)],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'invalid_request', message } });
  });

  it('refuses details as an unknown field when started without the extension', async () => {
    const server = await startServer({ failureDetails: false });
    const runId = await createRun(server);
    const answer = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [failed({ message: 'x' })],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: { code: 'invalid_request', message: 'results/0/details is not an allowed field' },
    });
  });
});

describe('the pages', () => {
  it('show each failure’s message and stack, escaped, and group failures by message', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    await post(server, `/api/v1/runs/${runId}/results`, {
      results: [
        failed({
          message: 'expected <b>1</b> to be 2',
          stack: 'Error: <script>x</script>\n  at a',
          location: 'src/cart.test.ts:3:9',
        }),
        failed({ message: 'timeout\nafter 5000 ms' }, { testCase: 'cart > waits' }),
        failed({ message: 'timeout' }, { testCase: 'cart > waits again' }),
        result(),
      ],
    });

    const page = (await get(server, `/runs/${runId}`, { key: null })).text;

    expect(page).toContain('<pre class="name failure-message">expected &lt;b&gt;1&lt;/b&gt; to be 2</pre>');
    expect(page).toContain('Error: &lt;script&gt;x&lt;/script&gt;');
    expect(page).not.toContain('<script>x');
    expect(page).toContain('at <code>src/cart.test.ts:3:9</code>');
    const groups = [
      ...page.matchAll(
        /<tr class="failure-group"><td><code class="name">([^<]*)<\/code><\/td><td class="failure-count">(\d+)</g,
      ),
    ];
    expect(groups.map((m) => [m[1], m[2]])).toEqual([
      ['timeout', '2'],
      ['expected &lt;b&gt;1&lt;/b&gt; to be 2', '1'],
    ]);
  });

  it('show no message table for failures that came with the four fields only', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    await post(server, `/api/v1/runs/${runId}/results`, { results: [result({ status: 'failed' })] });
    const page = (await get(server, `/runs/${runId}`, { key: null })).text;
    expect(page).toContain('id="failed"');
    expect(page).not.toContain('failures-by-message');
  });

  it('show on the test page why the test failed in each run', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    await post(server, `/api/v1/runs/${runId}/results`, {
      results: [failed({ message: 'boom & bust', attempts: 3 })],
    });
    const query = new URLSearchParams({ project: 'shop', suite: 'src/cart.test.ts', test: 'cart > adds' });
    const page = (await get(server, `/test?${query}`, { key: null })).text;
    expect(page).toContain('<pre class="name failure-message">boom &amp; bust</pre>');
    expect(page).toContain('after 3 attempts');
  });
});
