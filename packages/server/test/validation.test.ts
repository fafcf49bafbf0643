import { describe, expect, it } from 'vitest';
import { createRun, KEY, post, result, startServer } from './client.js';

describe('content type', () => {
  it('answers 415 for a body that is not declared as JSON', async () => {
    const server = await startServer();
    const answer = await post(
      server,
      '/api/v1/runs',
      { project: 'shop', framework: 'vitest' },
      {
        headers: { 'content-type': 'text/plain' },
      },
    );
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({
      error: {
        code: 'unsupported_media_type',
        message: 'Content-Type must be application/json, got "text/plain"',
      },
    });
  });

  it('answers 415 for a POST without a Content-Type', async () => {
    const server = await startServer();
    const response = await fetch(`${server.url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: new Uint8Array(Buffer.from('{"project":"shop","framework":"vitest"}')),
    });
    expect(response.status).toBe(415);
  });

  it('accepts application/json with a charset parameter', async () => {
    const server = await startServer();
    const answer = await post(
      server,
      '/api/v1/runs',
      { project: 'shop', framework: 'vitest' },
      {
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    );
    expect(answer.status).toBe(201);
  });
});

describe('run body', () => {
  it.each([
    ['a missing project', { framework: 'vitest' }, 'project is required'],
    ['a missing framework', { project: 'shop' }, 'framework is required'],
    ['an empty project', { project: '', framework: 'vitest' }, 'project must not be empty'],
    ['a blank framework', { project: 'shop', framework: '   ' }, 'framework must not be blank'],
    [
      'a tag that is not a string',
      { project: 'shop', framework: 'vitest', tags: ['ci', 3] },
      'tags/1 must be string',
    ],
    [
      'tags that are not an array',
      { project: 'shop', framework: 'vitest', tags: 'ci' },
      'tags must be array',
    ],
    [
      'a field the spec does not have',
      { project: 'shop', framework: 'vitest', name: 'x' },
      'name is not an allowed field',
    ],
    ['a body that is not an object', ['shop'], 'body must be object'],
  ])('answers 400 naming the field for %s', async (_case, body, message) => {
    const server = await startServer();
    const answer = await post(server, '/api/v1/runs', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'invalid_request', message } });
    expect(await server.store.runs()).toEqual([]);
  });
});

describe('results body', () => {
  const { testCase: _dropped, ...withoutTestCase } = result();

  it.each([
    ['a missing testCase', [result(), result(), result(), withoutTestCase], 'results/3/testCase is required'],
    [
      'a negative duration',
      [result(), result(), result(), result({ duration: -1 })],
      'results/3/duration must be >= 0',
    ],
    ['a duration sent as a string', [result({ duration: '12' })], 'results/0/duration must be number'],
    [
      'a status that is not allowed',
      [result({ status: 'broken' })],
      'results/0/status must be one of: passed, failed, skipped, todo',
    ],
    [
      'a field the spec does not have',
      [result({ error: 'boom' })],
      'results/0/error is not an allowed field',
    ],
    ['an empty results array', [], 'results must not be empty'],
  ])('answers 400 naming the field for %s', async (_case, results, message) => {
    const server = await startServer();
    const runId = await createRun(server);
    const answer = await post(server, `/api/v1/runs/${runId}/results`, { results });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'invalid_request', message } });
    expect(await server.store.allResults()).toEqual([]);
  });

  it('answers 400 for a field beside results', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const answer = await post(server, `/api/v1/runs/${runId}/results`, { results: [result()], final: true });
    expect(answer.body).toEqual({
      error: { code: 'invalid_request', message: 'final is not an allowed field' },
    });
  });

  it('accepts only the statuses it was configured with', async () => {
    const server = await startServer({ statuses: ['passed', 'failed', 'pending'] });
    const runId = await createRun(server);
    const pending = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result({ status: 'pending' })],
    });
    const todo = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result({ status: 'todo' })],
    });
    expect(pending.status).toBe(201);
    expect(todo.status).toBe(400);
  });
});

describe('malformed JSON', () => {
  it.each([
    ['broken syntax', '{"project": "shop",'],
    ['an empty body', ''],
  ])('answers 400 invalid_json for %s', async (_case, body) => {
    const server = await startServer();
    const answer = await post(server, '/api/v1/runs', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: { code: 'invalid_json', message: expect.stringMatching(/^request body is not valid JSON/) },
    });
  });
});
