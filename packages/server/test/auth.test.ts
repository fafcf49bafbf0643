import { describe, expect, it } from 'vitest';
import { get, KEY, post, startServer } from './client.js';

const run = { project: 'shop', framework: 'vitest' };

describe('bearer key', () => {
  it('answers 401 when the Authorization header is missing', async () => {
    const server = await startServer();
    const answer = await post(server, '/api/v1/runs', run, { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      error: { code: 'unauthorized', message: expect.stringContaining('Bearer') },
    });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 401 for a wrong key without repeating the key', async () => {
    const server = await startServer();
    const wrongKey = 'trk_leaked_secret_0123456789';
    const answer = await post(server, '/api/v1/runs', run, { key: wrongKey });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: 'unauthorized' } });
    expect(answer.text).not.toContain(wrongKey);
    expect(JSON.stringify(server.requests)).not.toContain(wrongKey);
  });

  it('answers 401 when the scheme is not Bearer', async () => {
    const server = await startServer();
    const answer = await post(server, '/api/v1/runs', run, {
      key: null,
      headers: { authorization: `Token ${KEY}` },
    });
    expect(answer.status).toBe(401);
  });

  it('accepts every configured key', async () => {
    const server = await startServer({ apiKeys: ['key-a', 'key-b'] });
    expect((await post(server, '/api/v1/runs', run, { key: 'key-a' })).status).toBe(201);
    expect((await post(server, '/api/v1/runs', run, { key: 'key-b' })).status).toBe(201);
  });

  it('requires the key on the read endpoints and on unknown API paths', async () => {
    const server = await startServer();
    expect((await get(server, '/api/v1/runs', { key: null })).status).toBe(401);
    expect((await get(server, '/api/v1/whatever', { key: null })).status).toBe(401);
  });

  it('requires the key however the path is percent-encoded', async () => {
    const server = await startServer();
    const answer = await post(
      server,
      '/%61pi/v1/runs',
      { project: 'shop', framework: 'vitest' },
      { key: null },
    );
    expect(answer.status).toBe(401);
    expect(await server.store.runs()).toEqual([]);
  });

  it('checks the key before the content type and the body', async () => {
    const server = await startServer();
    const answer = await post(server, '/api/v1/runs', 'not json', {
      key: 'wrong',
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(401);
  });

  it('serves the HTML page without a key', async () => {
    const server = await startServer();
    const answer = await get(server, '/', { key: null });
    expect(answer.status).toBe(200);
  });
});
