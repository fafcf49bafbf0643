import { once } from 'node:events';
import { Agent, type IncomingMessage, request } from 'node:http';
import { createServer, type TestrunServer } from '@testrun/server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KEY } from './client.js';

/** A run of `count` results whose list is far longer than a socket's buffers. */
async function longRun(server: TestrunServer, count: number): Promise<string> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const created = await fetch(`${server.url}/api/v1/runs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ project: 'p', framework: 'vitest' }),
  });
  const { id } = (await created.json()) as { id: string };
  for (let start = 0; start < count; start += 1000) {
    const results = Array.from({ length: 1000 }, (_, i) => ({
      testSuite: 'long.test.ts',
      testCase: `${'a long name '.repeat(20)}${start + i}`,
      status: 'passed',
      duration: 1,
    }));
    await fetch(`${server.url}/api/v1/runs/${id}/results`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ results }),
    });
  }
  return id;
}

/** GET `path`, answered up to its headers; the body is not read until the caller does. */
async function startGet(server: TestrunServer, path: string): Promise<IncomingMessage> {
  const req = request(`${server.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
  req.end();
  const [response] = (await once(req, 'response')) as [IncomingMessage];
  response.pause();
  return response;
}

function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
    response.on('aborted', () => reject(new Error('the answer was cut')));
    response.resume();
  });
}

function getOverKeepAlive(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('close()', () => {
  it('returns promptly while a keep-alive client is still connected', async () => {
    const server = await createServer();
    const agent = new Agent({ keepAlive: true });
    onTestFinished(() => agent.destroy());
    expect(await getOverKeepAlive(server.url, agent)).toBe(200);
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);

    const started = performance.now();
    await server.close();

    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('ends a request held by a fault delay', async () => {
    // Closed once the request is held, not after a guess at how long it takes to arrive: on a
    // loaded machine it had not reached the hook after 100 ms, and close() let it be answered.
    let held!: () => void;
    const arrived = new Promise<void>((resolve) => {
      held = resolve;
    });
    const server = await createServer({
      faults: () => {
        held();
        return { delayMs: 60_000 };
      },
    });
    const pending = fetch(`${server.url}/`).catch((error: unknown) => error);

    await arrived;
    const started = performance.now();
    await server.close();

    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('lets an answer under way finish: a long list streaming out when close() is called arrives whole', async () => {
    const server = await createServer({ apiKeys: [KEY] });
    const id = await longRun(server, 30_000);
    const response = await startGet(server, `/api/v1/runs/${id}/results`);

    const closed = server.close();
    const body = await readAll(response);
    await closed;

    expect((JSON.parse(body) as unknown[]).length).toBe(30_000);
  });

  it('cuts an answer whose client stops reading once closeTimeoutMs has passed', async () => {
    const server = await createServer({ apiKeys: [KEY], closeTimeoutMs: 200 });
    const id = await longRun(server, 30_000);
    const response = await startGet(server, `/api/v1/runs/${id}/results`);

    await server.close();

    await expect(readAll(response)).rejects.toThrow();
    expect(response.complete).toBe(false);
  });

  it('can be called twice', async () => {
    const server = await createServer();
    await Promise.all([server.close(), server.close()]);
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
