import type { FaultRequest } from '@testrun/server';
import { describe, expect, it, onTestFinished } from 'vitest';
// The file itself rather than the package index, which also pulls in the spawn helpers.
import { seededFaults, startTestServer, TEST_API_KEY } from '../src/server.js';

function requestTo(route: FaultRequest['route'], n: number): FaultRequest {
  return { method: 'POST', path: '/api/v1/runs', route, n, headers: {}, body: {} };
}

function actionsFor(hook: ReturnType<typeof seededFaults>, count: number) {
  return Array.from({ length: count }, (_, n) => hook(requestTo('submitResults', n)));
}

describe('startTestServer', () => {
  it('serves on loopback with TEST_API_KEY unless told otherwise', async () => {
    const { url, apiKey, close } = await startTestServer();
    onTestFinished(close);

    const response = await fetch(`${url}/api/v1/runs`, { headers: { authorization: `Bearer ${apiKey}` } });

    expect(apiKey).toBe(TEST_API_KEY);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(response.status).toBe(200);
  });

  it('uses the apiKey it is given', async () => {
    const { url, apiKey, close } = await startTestServer({ apiKey: 'other-key' });
    onTestFinished(close);
    const withDefault = await fetch(`${url}/api/v1/runs`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    expect(apiKey).toBe('other-key');
    expect(withDefault.status).toBe(401);
  });
});

describe('seededFaults', () => {
  it('gives the same faults for the same seed and different ones for another seed', () => {
    const rates = { status5xx: 0.3, drop: 0.2 };
    const first = actionsFor(seededFaults({ seed: 42, rates }), 50);
    const again = actionsFor(seededFaults({ seed: 42, rates }), 50);
    const other = actionsFor(seededFaults({ seed: 43, rates }), 50);

    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('fails roughly the requested share of requests with 5xx answers and both kinds of drop', () => {
    const actions = actionsFor(seededFaults({ seed: 7, rates: { status5xx: 0.3, drop: 0.2 } }), 2000);
    const statuses = actions.flatMap((action) => (action?.status ? [action.status] : []));
    const drops = actions.flatMap((action) => (action?.drop ? [action.drop] : []));

    expect(statuses.length / actions.length).toBeCloseTo(0.3, 1);
    expect(drops.length / actions.length).toBeCloseTo(0.2, 1);
    expect(new Set(statuses)).toEqual(new Set([500, 502, 503, 504]));
    expect(new Set(drops)).toEqual(new Set(['before', 'after']));
  });

  it('leaves routes outside its list alone, reads by default', () => {
    const hook = seededFaults({ seed: 1, rates: { status5xx: 1 } });
    expect(hook(requestTo('read', 0))).toBeUndefined();
    expect(hook(requestTo('createRun', 0))).toMatchObject({ status: expect.any(Number) });
  });

  it('refuses rates that add up to more than 1', () => {
    expect(() => seededFaults({ seed: 1, rates: { status5xx: 0.6, drop: 0.6 } })).toThrow(RangeError);
  });

  it('drives a real server: a retried request gets through after injected 5xx answers', async () => {
    const { server, url, apiKey, close } = await startTestServer({
      faults: seededFaults({ seed: 9, rates: { status5xx: 0.4 } }),
    });
    onTestFinished(close);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20 && !statuses.includes(201); attempt++) {
      const response = await fetch(`${url}/api/v1/runs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': 'run-1',
        },
        body: JSON.stringify({ project: 'shop', framework: 'vitest' }),
      });
      statuses.push(response.status);
    }
    // Seed 9 fails the first two attempts.
    expect(statuses).toEqual([504, 504, 201]);
    expect(await server.store.runs()).toHaveLength(1);
  });
});
