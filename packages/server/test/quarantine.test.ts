import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { MAX_QUARANTINE_DAYS } from '../src/api/quarantine.js';
import { MAX_QUARANTINED, testKey } from '../src/ledger/quarantines.js';
import { createRun, get, post, result, serverOn } from './client.js';

// Quarantine through the API (docs/design/quarantine.md): set, changed and lifted with the API key,
// every change kept with who, when and why; a read key reads and cannot change; the list a
// run's reporters read is the run's project's, by key, expired ones apart; a quarantined
// failure is stored failed and marked. On SQLite and a real PostgreSQL.

const READ_KEY = 'quarantine-read-key';
const FLAKY = { project: 'shop', testSuite: 'src/cart.test.ts', testCase: 'cart > totals > rounds' };
const DAY = 86_400_000;

function quarantine(server: Parameters<typeof post>[0], body: object, key?: string) {
  return post(
    server,
    '/api/v1/quarantines',
    { ...FLAKY, reason: 'flaky since the CDN change', ...body },
    { key },
  );
}

describe.each(storeEngines())('quarantine API on $name', (engine) => {
  const startServer = serverOn(engine);

  it('quarantines a test for 30 days by default, lists it, and keeps the change with who and when', async () => {
    const server = await startServer();
    const before = Date.now();
    const answer = await quarantine(server, { owner: 'team-cart', by: 'ana' });
    expect(answer.status).toBe(201);
    const { quarantine: set, change } = answer.body as {
      quarantine: Record<string, string>;
      change: Record<string, unknown>;
    };
    expect(set).toMatchObject({
      ...FLAKY,
      key: testKey(FLAKY.testSuite, FLAKY.testCase),
      reason: 'flaky since the CDN change',
      owner: 'team-cart',
      by: 'ana',
      state: 'active',
    });
    const lasts = Date.parse(set.expiresAt!) - Date.parse(set.since!);
    expect(lasts).toBe(30 * DAY);
    expect(Date.parse(set.since!)).toBeGreaterThanOrEqual(before);
    expect(change).toMatchObject({ action: 'quarantined', number: 1, by: 'ana', via: 'api', at: set.since });

    const listed = await get(server, '/api/v1/quarantines?project=shop');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ project: 'shop', quarantines: [set] });
    expect((await get(server, '/api/v1/quarantines?project=other')).body).toEqual({
      project: 'other',
      quarantines: [],
    });
  });

  it('changes a quarantine in force (since and who quarantined it stay), lifts it, quarantines it anew: every change listed, newest first', async () => {
    const server = await startServer();
    const first = await quarantine(server, { by: 'ana', days: 7 });
    const changed = await quarantine(server, { by: 'bo', reason: 'still flaky', days: 14 });
    expect(changed.status).toBe(200);
    const firstSet = (first.body as { quarantine: { since: string } }).quarantine;
    expect((changed.body as { quarantine: object }).quarantine).toMatchObject({
      since: firstSet.since,
      by: 'ana',
      reason: 'still flaky',
    });
    const lifted = await post(server, '/api/v1/quarantines/lift', {
      ...FLAKY,
      reason: 'fixed in #12',
      by: 'cy',
    });
    expect(lifted.status).toBe(200);
    expect(lifted.body).toMatchObject({
      quarantine: { state: 'lifted', liftedAt: expect.any(String) },
      change: { action: 'lifted', number: 3, reason: 'fixed in #12', by: 'cy' },
    });
    expect((await get(server, '/api/v1/quarantines?project=shop')).body).toMatchObject({ quarantines: [] });
    const again = await post(server, '/api/v1/quarantines/lift', { ...FLAKY, reason: 'twice' });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: { code: 'not_quarantined' } });

    const anew = await quarantine(server, { reason: 'flaky again' });
    expect(anew.status).toBe(201);
    expect((anew.body as { quarantine: { since: string; by: string } }).quarantine.by).toBe(
      'someone with the API key',
    );

    const changes = await get(server, '/api/v1/quarantines/changes?project=shop');
    expect(changes.status).toBe(200);
    const { changes: listed, next } = changes.body as { changes: Record<string, unknown>[]; next: null };
    expect(listed.map((c) => [c.number, c.action, c.by, c.reason])).toEqual([
      [4, 'quarantined', 'someone with the API key', 'flaky again'],
      [3, 'lifted', 'cy', 'fixed in #12'],
      [2, 'changed', 'bo', 'still flaky'],
      [1, 'quarantined', 'ana', 'flaky since the CDN change'],
    ]);
    expect(next).toBeNull();
    const paged = await get(server, '/api/v1/quarantines/changes?project=shop&limit=3');
    expect(paged.body).toMatchObject({ next: '3' });
    const rest = await get(server, '/api/v1/quarantines/changes?project=shop&limit=3&cursor=3');
    expect((rest.body as { changes: { number: number }[] }).changes.map((c) => c.number)).toEqual([1]);
    const ofTest = await get(
      server,
      `/api/v1/quarantines/changes?project=shop&suite=${encodeURIComponent(FLAKY.testSuite)}&test=other`,
    );
    expect(ofTest.body).toMatchObject({ changes: [] });
  });

  it('refuses a change with a read key (403) and without a key (401); a read key reads', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    const withReadKey = await quarantine(server, {}, READ_KEY);
    expect(withReadKey.status).toBe(403);
    expect(withReadKey.body).toMatchObject({ error: { code: 'read_key_cannot_write' } });
    const lift = await post(server, '/api/v1/quarantines/lift', { ...FLAKY, reason: 'x' }, { key: READ_KEY });
    expect(lift.status).toBe(403);
    const withoutKey = await post(server, '/api/v1/quarantines', { ...FLAKY, reason: 'x' }, { key: null });
    expect(withoutKey.status).toBe(401);
    expect((await get(server, '/api/v1/quarantines?project=shop', { key: READ_KEY })).status).toBe(200);
    expect(
      (await get(server, '/api/v1/quarantines/changes?project=shop', { key: READ_KEY })).body,
    ).toMatchObject({
      changes: [],
    });
  });

  it.each([
    [{ reason: '  ' }, 400, 'invalid_request'],
    [{ days: 0 }, 400, 'invalid_request'],
    [{ days: MAX_QUARANTINE_DAYS + 1 }, 400, 'invalid_request'],
    [{ days: 3, expiresAt: '2999-01-01' }, 400, 'invalid_request'],
    [{ expiresAt: '2001-01-01' }, 400, 'invalid_request'],
    [{ expiresAt: 'next week' }, 400, 'invalid_request'],
    [{ testCase: '(file failed to run)' }, 400, 'not_a_test'],
    [{ testSuite: '(run)', testCase: 'TypeError: x is undefined' }, 400, 'not_a_test'],
    [{ color: 'red' }, 400, 'invalid_request'],
  ])('refuses %j, saying why (%i %s)', async (body, status, code) => {
    const server = await startServer();
    const answer = await quarantine(server, body);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ error: { code, message: expect.any(String) } });
    expect((await get(server, '/api/v1/quarantines?project=shop')).body).toMatchObject({ quarantines: [] });
  });

  it('takes an expiry as a time, at most a year away', async () => {
    const server = await startServer();
    const at = new Date(Date.now() + 3 * DAY).toISOString();
    const answer = await quarantine(server, { expiresAt: at });
    expect(answer.status).toBe(201);
    expect((answer.body as { quarantine: { expiresAt: string } }).quarantine.expiresAt).toBe(at);
    const far = new Date(Date.now() + (MAX_QUARANTINE_DAYS + 2) * DAY).toISOString();
    expect((await quarantine(server, { expiresAt: far })).body).toMatchObject({
      error: { message: expect.stringContaining('at most 365 days away') },
    });
  });

  it(`holds at most ${MAX_QUARANTINED} tests in force in a project: one more is 409`, async () => {
    const server = await startServer();
    const at = new Date().toISOString();
    const expires = new Date(Date.now() + DAY).toISOString();
    await server.store.write(async (tx) => {
      for (let start = 0; start < MAX_QUARANTINED; start += 100) {
        const rows = Array.from({ length: 100 }, (_, i) => `t${start + i}`);
        await tx.tx.query(
          `INSERT INTO quarantines (project, test_key, test_suite, test_case, reason, owner, since, quarantined_by, expires_at, lifted_at) VALUES ${rows
            .map(
              (_, i) =>
                `('shop', $${i * 2 + 1}, 'a.test.ts', $${i * 2 + 2}, 'r', NULL, '${at}', 'x', '${expires}', NULL)`,
            )
            .join(', ')}`,
          rows.flatMap((name) => [testKey('a.test.ts', name), name]),
        );
      }
    });
    const answer = await quarantine(server, {});
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: { code: 'too_many_quarantined' } });
    // A quarantine in force may still change.
    expect(
      (await quarantine(server, { testSuite: 'a.test.ts', testCase: 't1', reason: 'renewed' })).status,
    ).toBe(200);
  });

  it("gives a run's reporters its project's tests in force by key, expired apart, and another project's apart", async () => {
    const server = await startServer();
    await quarantine(server, {});
    await quarantine(server, { project: 'web', testCase: 'web only' });
    await quarantine(server, { project: 'web', testSuite: FLAKY.testSuite, testCase: 'expired one' });
    const expiredAt = new Date(Date.now() - DAY).toISOString();
    await server.store.write((tx) =>
      tx.tx.query('UPDATE quarantines SET expires_at = $1 WHERE test_case = $2', [expiredAt, 'expired one']),
    );
    const runId = await createRun(server, { project: 'web', framework: 'vitest' });
    const answer = await get(server, `/api/v1/runs/${runId}/quarantine`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      runId,
      project: 'web',
      tests: [{ key: testKey(FLAKY.testSuite, 'web only'), expiresAt: expect.any(String) }],
      expired: [{ key: testKey(FLAKY.testSuite, 'expired one'), expiredAt }],
      // A test of the same name quarantined in another project quarantines nothing here: named, so a failure says why.
      elsewhere: [{ key: testKey(FLAKY.testSuite, FLAKY.testCase), project: 'shop' }],
    });
    expect((await get(server, '/api/v1/runs/nope/quarantine')).status).toBe(404);
    expect((await get(server, '/api/v1/quarantines?project=web')).body).toMatchObject({
      quarantines: [{ state: 'active' }, { state: 'expired', testCase: 'expired one' }],
    });
  });

  it('announces quarantine, stores a quarantined failure failed and marked, and counts it on the run', async () => {
    const server = await startServer();
    const created = await post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' });
    expect((created.body as { extensions: string[] }).extensions).toContain('quarantine');
    const runId = (created.body as { id: string }).id;
    const failed = result({ status: 'failed', quarantined: true, details: { message: 'expected 3' } });
    const sent = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [failed, result({ testCase: 'other', status: 'failed' }), result({ testCase: 'ok' })],
    });
    expect(sent.status).toBe(201);
    const stored = await server.store.results(runId);
    expect(stored[0]).toMatchObject({
      status: 'failed',
      quarantined: true,
      details: { message: 'expected 3' },
    });
    expect(stored[1]).not.toHaveProperty('quarantined');
    expect((await get(server, `/api/v1/runs/${runId}`)).body).toMatchObject({
      counts: { failed: 2 },
      quarantined: 1,
    });
    expect((await get(server, `/api/v1/runs/${runId}/results`)).body).toMatchObject([
      { quarantined: true },
      {},
      {},
    ]);
  });

  it('without quarantine, announces none and refuses the mark, as a service that knows nothing of it', async () => {
    const server = await startServer({ quarantine: false });
    const created = await post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' });
    expect((created.body as { extensions: string[] }).extensions).not.toContain('quarantine');
    const runId = (created.body as { id: string }).id;
    const sent = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result({ status: 'failed', quarantined: true })],
    });
    expect(sent.status).toBe(400);
    expect(sent.body).toMatchObject({ error: { message: 'results/0/quarantined is not an allowed field' } });
  });

  it('answers a retried change with the same Idempotency-Key from the first, changing nothing twice', async () => {
    const server = await startServer();
    const headers = { 'idempotency-key': 'quarantine-once' };
    const first = await post(server, '/api/v1/quarantines', { ...FLAKY, reason: 'r' }, { headers });
    const second = await post(server, '/api/v1/quarantines', { ...FLAKY, reason: 'r' }, { headers });
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await get(server, '/api/v1/quarantines/changes?project=shop')).body).toMatchObject({
      changes: [{ number: 1 }],
    });
  });
});
