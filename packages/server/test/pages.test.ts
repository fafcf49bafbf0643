import { describe, expect, it } from 'vitest';
import { createRun, get, post, result, startServer } from './client.js';

describe('HTML pages', () => {
  it('lists runs on / with project, framework, tags and counts by status', async () => {
    const server = await startServer();
    const runId = await createRun(server, { project: 'shop', framework: 'vitest', tags: ['branch:main'] });
    await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result(), result(), result({ status: 'failed' })],
    });

    const page = await get(server, '/', { key: null });

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain(`<a href="/runs/${runId}">shop</a>`);
    expect(page.text).toContain('<td>vitest</td>');
    expect(page.text).toContain('<span class="tag">branch:main</span>');
    expect(page.text).toContain('<td class="number status-passed">2</td>');
    expect(page.text).toContain('<td class="number status-failed">1</td>');
  });

  it('escapes everything a client sent', async () => {
    const server = await startServer();
    const runId = await createRun(server, {
      project: '<script>alert(1)</script>',
      framework: 'a&b',
      tags: ['"x"'],
    });
    await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result({ testCase: "<img src=x onerror='1'>" })],
    });

    const list = await get(server, '/');
    const detail = await get(server, `/runs/${runId}`);

    expect(list.text).not.toContain('<script>alert');
    expect(list.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(list.text).toContain('a&amp;b');
    expect(list.text).toContain('&quot;x&quot;');
    expect(detail.text).not.toContain('<img');
    expect(detail.text).toContain('&lt;img src=x onerror=&#39;1&#39;&gt;');
  });

  it("shows a run's results and filters them by status through links", async () => {
    const server = await startServer();
    const runId = await createRun(server);
    await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result({ testCase: 'works' }), result({ testCase: 'breaks', status: 'failed' })],
    });

    const all = await get(server, `/runs/${runId}`);
    const failed = await get(server, `/runs/${runId}?status=failed`);

    expect(all.text).toContain('<td>works</td>');
    expect(all.text).toContain('<td>breaks</td>');
    expect(all.text).toContain(`<a href="/runs/${runId}?status=failed" class="">failed (1)</a>`);
    expect(failed.text).toContain('<td>breaks</td>');
    expect(failed.text).not.toContain('<td>works</td>');
    expect(failed.text).toContain(`<a href="/runs/${runId}?status=failed" class="current">failed (1)</a>`);
  });

  it('answers 404 with a page for an unknown run', async () => {
    const server = await startServer();
    const page = await get(server, '/runs/nope');
    expect(page.status).toBe(404);
    expect(page.text).toContain('No run nope');
  });

  it('says so when there are no runs yet', async () => {
    const server = await startServer();
    const page = await get(server, '/');
    expect(page.text).toContain('No runs yet.');
  });
});
