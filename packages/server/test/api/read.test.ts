import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { createRun, get, patch, post, result, serverOn } from '../client.js';

interface RunsPage {
  runs: { id: string; project: string; state: string }[];
  next: string | null;
}

describe.each(storeEngines())('the read API in pages on $name', (engine) => {
  const startServer = serverOn(engine);
  it('pages runs newest first, the next cursor in the body and in a Link header, until the last page', async () => {
    const server = await startServer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push(await createRun(server, { project: 'shop', framework: 'vitest' }));

    const first = await get(server, '/api/v1/runs?limit=2');
    const firstPage = first.body as RunsPage;
    expect(firstPage.runs.map((run) => run.id)).toEqual([ids[4], ids[3]]);
    expect(firstPage.next).toEqual(expect.any(String));
    expect(first.headers.get('link')).toBe(`</api/v1/runs?limit=2&cursor=${firstPage.next}>; rel="next"`);

    const seen = [...firstPage.runs.map((run) => run.id)];
    let link = first.headers.get('link');
    while (link) {
      const next = await get(server, /<([^>]+)>/.exec(link)![1]!);
      seen.push(...(next.body as RunsPage).runs.map((run) => run.id));
      link = next.headers.get('link');
      if (!link) expect((next.body as RunsPage).next).toBeNull();
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters pages by project, framework, tag and state', async () => {
    const server = await startServer();
    const shop = await createRun(server, { project: 'shop', framework: 'vitest', tags: ['branch:main'] });
    const cart = await createRun(server, { project: 'cart', framework: 'jest', tags: ['branch:dev'] });
    await patch(server, `/api/v1/runs/${cart}`, { status: 'completed' });
    const ids = async (query: string) =>
      ((await get(server, `/api/v1/runs?limit=10&${query}`)).body as RunsPage).runs.map((run) => run.id);

    expect(await ids('project=shop')).toEqual([shop]);
    expect(await ids('framework=jest')).toEqual([cart]);
    expect(await ids('tag=branch%3Amain')).toEqual([shop]);
    expect(await ids('branch=main')).toEqual([shop]);
    expect(await ids('branch=ma*')).toEqual([shop]);
    expect(await ids('state=completed')).toEqual([cart]);
    expect(await ids('state=running')).toEqual([shop]);
    expect(await ids('state=abandoned')).toEqual([]);
    expect(await ids('project=shop&state=completed')).toEqual([]);
  });

  it('stores a tag a run carries twice once, and keeps the run as sent', async () => {
    const server = await startServer();
    const tags = ['nightly', 'nightly', 'ünïcode ✓'];
    const twice = await createRun(server, { project: 'shop', framework: 'vitest', tags });
    const ids = async (query: string) =>
      ((await get(server, `/api/v1/runs?limit=10&${query}`)).body as RunsPage).runs.map((run) => run.id);

    expect(await ids('tag=nightly')).toEqual([twice]);
    expect(await ids(`tag=${encodeURIComponent('ünïcode ✓')}`)).toEqual([twice]);
    expect(
      await server.store.countRuns({ tag: 'nightly' }, { now: Date.now(), abandonedAfterMs: 3_600_000 }),
    ).toBe(1);
    expect((await server.store.run(twice))?.tags).toEqual(tags);
  });

  it("pages a run's results in arrival order, the link keeping the query", async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const names = Array.from({ length: 7 }, (_, i) => `test ${i}`);
    await post(server, `/api/v1/runs/${runId}/results`, {
      results: names.slice(0, 4).map((testCase) => result({ testCase })),
    });
    await post(server, `/api/v1/runs/${runId}/results`, {
      results: names.slice(4).map((testCase) => result({ testCase })),
    });

    const seen: string[] = [];
    let path: string | undefined = `/api/v1/runs/${runId}/results?limit=3`;
    let pages = 0;
    while (path) {
      const answer = await get(server, path);
      const body = answer.body as { results: { testCase: string; runId: string }[]; next: string | null };
      seen.push(...body.results.map((r) => r.testCase));
      pages += 1;
      path = /<([^>]+)>/.exec(answer.headers.get('link') ?? '')?.[1];
      if (path) expect(path).toContain('limit=3');
    }
    expect(seen).toEqual(names);
    expect(pages).toBe(3);
  });

  it('still answers the whole list as a bare array without limit or cursor', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    await post(server, `/api/v1/runs/${runId}/results`, { results: [result(), result({ testCase: 'b' })] });
    expect((await get(server, '/api/v1/runs')).body).toEqual([expect.objectContaining({ id: runId })]);
    expect((await get(server, `/api/v1/runs/${runId}/results`)).body).toHaveLength(2);
  });

  it('streams a bare array longer than one database read, in order, as valid JSON', async () => {
    const server = await startServer({ maxResultsPerRequest: 1000 });
    const runId = await createRun(server);
    const names = Array.from({ length: 2500 }, (_, i) => `test ${i}`);
    for (let start = 0; start < names.length; start += 1000) {
      const results = names.slice(start, start + 1000).map((testCase) => result({ testCase }));
      expect((await post(server, `/api/v1/runs/${runId}/results`, { results })).status).toBe(201);
    }
    const answer = await get(server, `/api/v1/runs/${runId}/results`);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect((answer.body as { testCase: string }[]).map((stored) => stored.testCase)).toEqual(names);
    const empty = await createRun(server);
    expect((await get(server, `/api/v1/runs/${empty}/results`)).body).toEqual([]);
    expect((await get(server, '/api/v1/runs?project=nobody')).body).toEqual([]);
  });

  it('refuses a limit out of range, a cursor it did not make and an unknown state, with 400', async () => {
    const server = await startServer();
    for (const query of [
      'limit=0',
      'limit=1001',
      'limit=ten',
      'cursor=abc',
      'state=sleeping',
      'limit=1&limit=2',
    ]) {
      const answer = await get(server, `/api/v1/runs?${query}`);
      expect(answer.status, query).toBe(400);
      expect((answer.body as { error: { code: string } }).error.code).toBe('invalid_request');
    }
  });
});
