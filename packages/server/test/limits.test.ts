import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRun, post, result, startServer } from './client.js';

const results = (count: number) => Array.from({ length: count }, (_, i) => result({ testCase: `case ${i}` }));

describe('limits', () => {
  it('answers 413 too_many_results naming the limit when a batch has more results than allowed', async () => {
    const server = await startServer({ maxResultsPerRequest: 10 });
    const runId = await createRun(server);

    const answer = await post(server, `/api/v1/runs/${runId}/results`, { results: results(11) });

    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      error: {
        code: 'too_many_results',
        message: 'results has 11 items; this server accepts at most 10 per request',
      },
    });
    expect(await server.store.allResults()).toEqual([]);
  });

  it('accepts a batch of exactly the limit', async () => {
    const server = await startServer({ maxResultsPerRequest: 10 });
    const runId = await createRun(server);
    const answer = await post(server, `/api/v1/runs/${runId}/results`, { results: results(10) });
    expect(answer.body).toEqual({ accepted: 10 });
  });

  it('checks the batch size before the fields of each result', async () => {
    const server = await startServer({ maxResultsPerRequest: 2 });
    const runId = await createRun(server);
    const answer = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result(), result(), result({ duration: -1 })],
    });
    expect(answer.status).toBe(413);
  });

  it('defaults to 1000 results per request', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    expect((await post(server, `/api/v1/runs/${runId}/results`, { results: results(1000) })).status).toBe(
      201,
    );
    expect((await post(server, `/api/v1/runs/${runId}/results`, { results: results(1001) })).status).toBe(
      413,
    );
  });

  it('answers 413 body_too_large naming the limit when the body is larger than allowed', async () => {
    const server = await startServer({ maxBodyBytes: 2048 });
    const runId = await createRun(server);

    const answer = await post(server, `/api/v1/runs/${runId}/results`, { results: results(40) });

    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      error: { code: 'body_too_large', message: "request body exceeds this server's limit of 2048 bytes" },
    });
    expect(await server.store.allResults()).toEqual([]);
  });

  it('answers 413 for a body over the default 5 MiB', async () => {
    const server = await startServer({ maxResultsPerRequest: 100_000 });
    const runId = await createRun(server);
    const big = results(1).map((r) => ({ ...r, testCase: 'x'.repeat(5 * 1024 * 1024) }));
    const answer = await post(server, `/api/v1/runs/${runId}/results`, { results: big });
    expect(answer.status).toBe(413);
  });

  it('answers 408 to a body that never ends, closes a connection that says nothing, and serves on', async () => {
    const server = await startServer({ clientTimeoutMs: 500 });
    const { port } = new URL(server.url);
    const connect = () => net.connect(Number(port), '127.0.0.1');
    const closed = (socket: net.Socket) => {
      let answer = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        answer += chunk;
      });
      return new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
    };

    // A body that says 100,000 bytes and sends one a tenth of a second: never whole.
    const trickle = connect();
    trickle.write(
      'POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer server-test-key\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
    );
    const drip = setInterval(() => trickle.write(' '), 100);
    const idle = connect();
    const [trickled, idled] = await Promise.all([closed(trickle), closed(idle)]);
    clearInterval(drip);
    expect(trickled).toMatch(/^HTTP\/1\.1 408 /);
    // Closed, by whichever of two clocks comes first: the connection's idle limit closes it
    // without a word, Node's check of request timeouts (every clientTimeoutMs / 4) with a 408.
    // A loaded machine saw the second.
    expect(idled).toMatch(/^(|HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*)$/);
    expect(await createRun(server)).toEqual(expect.any(String));
  });
});
