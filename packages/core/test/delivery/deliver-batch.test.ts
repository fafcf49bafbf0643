import { randomUUID } from 'node:crypto';
import { makeResults, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/delivery/deadline.js';
import { bodyFor, deliverBatch, makeBatch, resultsOf, splitBatch } from '../../src/delivery/deliver-batch.js';
import { HttpClient } from '../../src/http/client.js';
import { toResult } from '../../src/results/normalize.js';
import type { Batch, TestResult } from '../../src/types.js';

const POLICY = { maxRetries: 2, requestTimeout: 5_000 };

function results(count: number): TestResult[] {
  const options = {
    statusMap: { passed: 'passed', failed: 'failed', skipped: 'skipped', todo: 'skipped' },
    durationUnit: 'ms' as const,
  };
  return makeResults(count).map((raw) => toResult(raw, options));
}

async function deliverTo(server: Awaited<ReturnType<typeof startTestServer>>, batch: Batch) {
  const http = new HttpClient({ baseUrl: server.url, apiKey: server.apiKey, userAgent: 'test', env: {} });
  const runId = (await server.server.store.runs())[0]?.id ?? (await createRunOn(server));
  try {
    return { runId, delivery: await deliverBatch(http, runId, batch, POLICY, new Deadline()) };
  } finally {
    await http.close();
  }
}

async function createRunOn(server: Awaited<ReturnType<typeof startTestServer>>): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: 'p', framework: 'vitest', tags: [] }),
  });
  return ((await response.json()) as { id: string }).id;
}

describe('splitBatch', () => {
  it('halves a batch, the first half taking the odd one', () => {
    const [first, second] = splitBatch(makeBatch(results(5), 'k'));
    expect([first.count, second.count]).toEqual([3, 2]);
    expect([...resultsOf(first), ...resultsOf(second)]).toEqual(results(5));
  });

  it('gives each half a new key of UUID shape', () => {
    const parent = randomUUID();
    const keys = splitBatch(makeBatch(results(2), parent)).map((half) => half.idempotencyKey);
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set([parent, ...keys]).size).toBe(3);
  });

  it('splits the same batch into the same keys every time, so a resumed replay is recognised', () => {
    const keysOf = (key: string) => splitBatch(makeBatch(results(2), key)).map((h) => h.idempotencyKey);
    expect(keysOf('parent-key')).toEqual(keysOf('parent-key'));
    expect(keysOf('parent-key')).not.toEqual(keysOf('other-key'));
  });
});

describe('deliverBatch against the local server', () => {
  it('halves a batch the service finds too large until every part is stored, each result once', async () => {
    const server = await startTestServer({ maxResultsPerRequest: 30 });
    const sent = results(100);
    const { runId, delivery } = await deliverTo(server, makeBatch(sent, randomUUID()));
    expect(delivery).toEqual({ delivered: 100, left: [], failure: undefined });
    const stored = (await server.server.store.results(runId)).map((result) => result.testCase);
    expect(stored.sort()).toEqual(sent.map((result) => result.testCase).sort());
  });

  it('leaves a single result the service refuses, with the reason', async () => {
    const server = await startTestServer({ maxResultsPerRequest: 1, maxBodyBytes: 600 });
    const sent = results(2);
    sent[1]!.testCase = 'x'.repeat(1_000);
    const { delivery } = await deliverTo(server, makeBatch(sent, randomUUID()));
    expect(delivery.delivered).toBe(1);
    expect(delivery.left.map((part) => resultsOf(part)[0]!.testCase)).toEqual(['x'.repeat(1_000)]);
    expect(delivery.failure?.kind).toBe('too-large');
  });

  it('stops splitting once the key is refused', async () => {
    const server = await startTestServer({ maxResultsPerRequest: 2 });
    server.server.setFaults((request) =>
      request.route === 'submitResults' && request.n >= 1 ? { status: 401 } : undefined,
    );
    const { delivery } = await deliverTo(server, makeBatch(results(8), randomUUID()));
    expect(delivery.failure?.kind).toBe('auth');
    expect(delivery.delivered).toBe(0);
    expect(delivery.left.flatMap(resultsOf)).toHaveLength(8);
    // The first 413, then one half refused: the other half is not sent with a refused key.
    expect(server.server.requests.filter((request) => request.route === 'submitResults')).toHaveLength(2);
  });
});

describe('bodyFor', () => {
  const failed: TestResult = {
    testSuite: 's',
    testCase: 'c',
    status: 'failed',
    duration: 1,
    details: { message: 'boom', location: 's:1' },
  };

  it('keeps why a test failed for a service that accepts failure-details', () => {
    const batch = makeBatch([failed], 'k');
    expect(batch.withDetails).toBe(true);
    expect(JSON.parse(bodyFor(batch, true)).results[0].details).toEqual({ message: 'boom', location: 's:1' });
  });

  it("sends a service that does not accept it exactly the four fields' bytes", () => {
    const { details: _, ...four } = failed;
    const plain = makeBatch([four], 'k').body;
    expect(bodyFor(makeBatch([failed], 'k'), false)).toBe(plain);
    expect(plain).toBe('{"results":[{"testSuite":"s","testCase":"c","status":"failed","duration":1}]}');
  });

  it('keeps the details in both halves of a split batch', () => {
    const [first, second] = splitBatch(makeBatch([failed, failed], 'k'));
    expect([first.withDetails, second.withDetails]).toEqual([true, true]);
    expect(resultsOf(second)[0]?.details?.message).toBe('boom');
  });
});
