import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { CHUNK_CHARS } from '../../src/pages/stream.js';
import { createRun, post, result, startServer } from '../client.js';

// Rendering a large page must never hold up ingest: a reporter gives up after 10 s, and two
// people opening a 100,000-result page once held a one-result write for 9.4 s. No fixed time
// here: the order of events, and the write's wait as a share of the page's.

describe('a large page and a write at the same time', () => {
  it('answers a write sent with a large run page before the page has finished, in a fraction of its time', async () => {
    const server = await startServer();
    const big = await createRun(server, { project: 'big', framework: 'vitest' });
    for (let batch = 0; batch < 30; batch++) {
      const results = Array.from({ length: 1000 }, (_, n) =>
        result({ testSuite: `suite ${batch}`, testCase: `test ${n}`, duration: n }),
      );
      expect((await post(server, `/api/v1/runs/${big}/results`, { results })).status).toBe(201);
    }
    const other = await createRun(server, { project: 'small', framework: 'vitest' });

    const events: string[] = [];
    const start = performance.now();
    let pageBytes = 0;
    let pageRequestSent: () => void = () => {};
    const pageRequestOut = new Promise<void>((resolve) => {
      pageRequestSent = resolve;
    });
    const page = new Promise<number>((resolve, reject) => {
      http
        .get(`${server.url}/runs/${big}`, (response) => {
          response.on('data', (chunk: Buffer) => {
            pageBytes += chunk.length;
          });
          response.on('end', () => {
            events.push('page ended');
            resolve(performance.now() - start);
          });
          response.on('error', reject);
        })
        .on('finish', () => pageRequestSent())
        .on('error', reject);
    });
    // A reporter's write, sent once the page request has left: the server reads the page's first.
    await pageRequestOut;
    const write = post(server, `/api/v1/runs/${other}/results`, { results: [result()] }).then((answer) => {
      events.push('write answered');
      return { status: answer.status, waited: performance.now() - start };
    });

    const [pageTook, written] = await Promise.all([page, write]);
    expect(written.status).toBe(201);
    expect(await server.store.results(other)).toHaveLength(1);
    // The run page lists 1,000 of the 30,000 results a page (the database pages them): still
    // several chunks, each with a turn of the event loop after it.
    expect(pageBytes).toBeGreaterThan(3 * CHUNK_CHARS);
    expect(events).toEqual(['write answered', 'page ended']);
    // A page rendered in one piece holds the write for all of its rendering: nearly the page's
    // whole time. Rendered in chunks with turns between, the write waits a few chunks.
    // The page's cost is now bounded: the database pages the run (1,000 of its 30,000 results)
    // and its queries take turns with writes in the database's queue, so the write waits for the
    // query under way, not for the page; with 1,000 rows the queries are most of the page's time,
    // and a share of it says nothing more than the order above.
    expect(written.waited).toBeLessThan(pageTook);
  });
});
