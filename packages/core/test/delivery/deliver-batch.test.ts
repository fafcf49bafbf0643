import { randomUUID } from 'node:crypto';
import { makeResults, refusingResults, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/delivery/deadline.js';
import { bodyFor, deliverBatch, makeBatch, resultsOf, splitBatch } from '../../src/delivery/deliver-batch.js';
import { MAX_BLIND_REFUSALS, RunRefusals } from '../../src/delivery/refusals.js';
import type { ResultLimits } from '../../src/extensions.js';
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

async function deliverTo(
  server: Awaited<ReturnType<typeof startTestServer>>,
  batch: Batch,
  refusals = new RunRefusals(),
  limits?: ResultLimits,
) {
  const http = new HttpClient({ baseUrl: server.url, apiKey: server.apiKey, userAgent: 'test', env: {} });
  const runId = (await server.server.store.runs())[0]?.id ?? (await createRunOn(server));
  try {
    return {
      runId,
      delivery: await deliverBatch(http, runId, batch, POLICY, new Deadline(), { refusals, limits }),
    };
  } finally {
    await http.close();
  }
}

const submits = (server: Awaited<ReturnType<typeof startTestServer>>) =>
  server.server.requests.filter((request) => request.route === 'submitResults');

async function storedCases(server: Awaited<ReturnType<typeof startTestServer>>, runId: string) {
  return (await server.server.store.results(runId)).map((result) => result.testCase).sort();
}

const casesOf = (sent: readonly TestResult[]) => sent.map((result) => result.testCase).sort();

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

  it('splits a batch past the limits the service announced before sending it, into the parts and keys its 413s would give', async () => {
    const sent = results(100);
    const key = randomUUID();
    const storedKeys = (server: Awaited<ReturnType<typeof startTestServer>>) =>
      submits(server)
        .filter((request) => request.status === 201)
        .map((request) => request.idempotencyKey)
        .sort();
    const answering = await startTestServer({ maxResultsPerRequest: 30 });
    await deliverTo(answering, makeBatch(sent, key));
    for (const limits of [
      { maxResults: 30 },
      { maxBytes: 30 * Buffer.byteLength(JSON.stringify(sent[0])) },
    ]) {
      const announcing = await startTestServer({ maxResultsPerRequest: 30 });
      const { runId, delivery } = await deliverTo(
        announcing,
        makeBatch(sent, key),
        new RunRefusals(),
        limits,
      );
      expect(delivery).toEqual({ delivered: 100, left: [], failure: undefined });
      expect(submits(announcing).map((request) => request.status)).not.toContain(413);
      expect(storedKeys(announcing)).toEqual(storedKeys(answering));
      expect(await storedCases(announcing, runId)).toEqual(casesOf(sent));
    }
    expect(submits(answering).map((request) => request.status)).toContain(413);
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

// docs/design/delivery.md#400-the-result-at-fault.
describe('deliverBatch when the service refuses a batch for what it holds', () => {
  it('splits it to find the one result at fault, stores every other, and holds that one to be said, not spooled', async () => {
    const server = await startTestServer({
      faults: refusingResults((result) => result.testCase === 'case 37', 'results/0/testCase is reserved'),
    });
    const sent = results(100);
    const refusals = new RunRefusals();
    const { runId, delivery } = await deliverTo(server, makeBatch(sent, randomUUID()), refusals);
    expect(delivery).toEqual({ delivered: 99, left: [], failure: undefined });
    expect(await storedCases(server, runId)).toEqual(casesOf(sent.filter((r) => r.testCase !== 'case 37')));
    const refused = refusals.takeRefused();
    expect(refused.map(({ result }) => result.testCase)).toEqual(['case 37']);
    expect(refused[0]!.error.code).toBe('TESTRUN_RESULT_REFUSED');
    expect(refused[0]!.error.message).toMatch(
      /^the service refused a result, which is not sent again: testSuite "suite.test.ts", testCase "case 37" \(status "passed", duration 2\): POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/runs\/[^/]+\/results answered 400: .*results\/0\/testCase is reserved/,
    );
    expect(refusals.waiting).toBe(false);
    // Down to the result and its neighbour: a path of halves, each with its sibling.
    expect(submits(server).length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(100)) + 1);
  });

  it('finds what the local server itself refuses: a status it does not take', async () => {
    const server = await startTestServer({ statuses: ['passed', 'failed'] });
    const sent = results(10);
    sent[3]!.status = 'skipped';
    sent[8]!.status = 'skipped';
    const refusals = new RunRefusals();
    const { runId, delivery } = await deliverTo(server, makeBatch(sent, randomUUID()), refusals);
    expect(delivery).toEqual({ delivered: 8, left: [], failure: undefined });
    expect(await storedCases(server, runId)).toHaveLength(8);
    const refused = refusals.takeRefused();
    expect(refused.map(({ result }) => result.testCase).sort()).toEqual(['case 3', 'case 8']);
    expect(refused[0]!.error.message).toContain('results/0/status must be one of: passed, failed');
  });

  it('finds every result at fault, side by side or spread out', async () => {
    const atFault = (testCase: string) => {
      const n = Number(testCase.slice('case '.length));
      return n < 12 || n % 5 === 0;
    };
    const server = await startTestServer({ faults: refusingResults((r) => atFault(r.testCase), 'no') });
    const sent = results(100);
    const refusals = new RunRefusals();
    const { runId, delivery } = await deliverTo(server, makeBatch(sent, randomUUID()), refusals);
    const refused = casesOf(refusals.takeRefused().map(({ result }) => result));
    expect(refused).toEqual(casesOf(sent.filter((r) => atFault(r.testCase))));
    expect(delivery.delivered + refused.length).toBe(100);
    expect(delivery.left).toEqual([]);
    expect(await storedCases(server, runId)).toEqual(casesOf(sent.filter((r) => !atFault(r.testCase))));
    // Each request a node of the halving, each node once: fewer than two per result.
    expect(submits(server).length).toBeLessThan(2 * 100);
  });

  it('keeps a batch it refuses whatever it holds after a bounded number of requests, then sends each later batch once', async () => {
    const server = await startTestServer({ faults: refusingResults(() => true, 'run id is not valid here') });
    const sent = results(2_000);
    const refusals = new RunRefusals();
    const first = await deliverTo(server, makeBatch(sent, randomUUID()), refusals);
    expect(first.delivery.delivered).toBe(0);
    expect(first.delivery.failure?.kind).toBe('requests-refused');
    expect(first.delivery.failure?.error.message).toMatch(
      /^the service refused this run's results whatever they held .*they are spooled, not dropped\. POST .* answered 400: .*run id is not valid here/,
    );
    expect(submits(server).length).toBe(MAX_BLIND_REFUSALS + 1);
    // Nothing lost: every result is left for the spool, or waits to be judged with the run.
    const kept = [...first.delivery.left, ...refusals.takeUndecided()].flatMap(resultsOf);
    expect(casesOf(kept)).toEqual(casesOf(sent));
    expect(refusals.takeRefused()).toEqual([]);

    const second = await deliverTo(server, makeBatch(results(50), randomUUID()), refusals);
    expect(second.delivery.left.flatMap(resultsOf)).toHaveLength(50);
    expect(submits(server).length).toBe(MAX_BLIND_REFUSALS + 2);
  });

  it('waits to judge a result refused alone until the service takes another of the run', async () => {
    const server = await startTestServer({
      faults: refusingResults((result) => result.testCase === 'case 0', 'bad'),
    });
    const refusals = new RunRefusals();
    const lone = await deliverTo(server, makeBatch(results(1), randomUUID()), refusals);
    expect(lone.delivery).toEqual({ delivered: 0, left: [], failure: undefined });
    expect(refusals.waiting).toBe(true);
    expect(refusals.takeRefused()).toEqual([]);
    const next = await deliverTo(server, makeBatch(results(3).slice(1), randomUUID()), refusals);
    expect(next.delivery.delivered).toBe(2);
    expect(refusals.waiting).toBe(false);
    expect(refusals.takeRefused().map(({ result }) => result.testCase)).toEqual(['case 0']);
  });

  it('does not split a refusal that is no judgement of what the batch holds: 404 (no such run), 422 (a key sent with another body)', async () => {
    const server = await startTestServer();
    const http = new HttpClient({ baseUrl: server.url, apiKey: server.apiKey, userAgent: 'test', env: {} });
    const delivery = await deliverBatch(
      http,
      'no-such-run',
      makeBatch(results(8), 'k'),
      POLICY,
      new Deadline(),
    );
    expect(delivery.failure?.kind).toBe('rejected');
    expect(delivery.left).toHaveLength(1);
    expect(submits(server)).toHaveLength(1);
    // The IETF Idempotency-Key draft's 422: halves with new keys would store the first body's results again.
    const runId = await createRunOn(server);
    const key = randomUUID();
    expect(await deliverBatch(http, runId, makeBatch(results(4), key), POLICY, new Deadline())).toMatchObject(
      {
        delivered: 4,
      },
    );
    const reused = await deliverBatch(http, runId, makeBatch(results(6), key), POLICY, new Deadline());
    await http.close();
    expect(reused.failure?.kind).toBe('rejected');
    expect((reused.failure!.error as { status?: number }).status).toBe(422);
    expect(reused.left.flatMap(resultsOf)).toHaveLength(6);
    expect(await server.server.store.results(runId)).toHaveLength(4);
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
