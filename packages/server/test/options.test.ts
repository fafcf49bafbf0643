import { createServer } from '@testrun/server';
import { describe, expect, it } from 'vitest';
import { startServer } from './client.js';

describe('options', () => {
  it('accepts the default key testrun-local-key when no keys are given', async () => {
    const server = await createServer();
    try {
      const response = await fetch(`${server.url}/api/v1/runs`, {
        headers: { authorization: 'Bearer testrun-local-key' },
      });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('listens on 127.0.0.1 with an ephemeral port by default', async () => {
    const server = await startServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each([
    [{ apiKeys: [] }, 'apiKeys must be a non-empty array of non-empty strings'],
    [{ statuses: [''] }, 'statuses must be a non-empty array of non-empty strings'],
    [{ maxResultsPerRequest: 0 }, 'maxResultsPerRequest must be an integer >= 1, got 0'],
    [{ port: 1.5 }, 'port must be an integer >= 0, got 1.5'],
    [{ closeTimeoutMs: -1 }, 'closeTimeoutMs must be an integer >= 0, got -1'],
    [{ trustProxy: ['proxy.internal'] }, 'trustProxy must list IP addresses or CIDR ranges'],
    [{ trustProxy: ['10.0.0.0/33'] }, 'got "10.0.0.0/33"'],
  ])('refuses %o', async (options, message) => {
    await expect(createServer(options)).rejects.toThrow(message);
  });
});
