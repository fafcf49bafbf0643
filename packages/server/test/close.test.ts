import { Agent, request } from 'node:http';
import { createServer } from '@testrun/server';
import { describe, expect, it, onTestFinished } from 'vitest';

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
    const server = await createServer({ faults: () => ({ delayMs: 60_000 }) });
    const pending = fetch(`${server.url}/`).catch((error: unknown) => error);

    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await server.close();

    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('can be called twice', async () => {
    const server = await createServer();
    await Promise.all([server.close(), server.close()]);
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
