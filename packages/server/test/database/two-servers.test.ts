import type { TestrunServer } from '@testrun/server';
import { havePostgres, type PostgresServer, startPostgres } from '@testrun/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { get, post, result, startServer } from '../client.js';

// Two `testrun serve` behind one address, on a team's PostgreSQL: what one accepted, the other
// serves, and what must be unique (an Idempotency-Key's write, a run number) is decided by the
// database, never by either server's memory.
describe.skipIf(!havePostgres())('two servers on one PostgreSQL', () => {
  let postgres: PostgresServer;
  let one: TestrunServer;
  let other: TestrunServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(() => postgres?.stop());
  beforeEach(async () => {
    const database = await postgres.createDatabase();
    // Started together on an empty database: both run the migrations, one waits for the other.
    [one, other] = await Promise.all([
      startServer({ database, runIds: 'integer' }),
      startServer({ database, runIds: 'integer' }),
    ]);
  });

  /** A run id as the server wrote it, digit for digit: JSON.parse would round an id past 2^53. */
  function idIn(text: string): string {
    const id = /"id":(\d+)/.exec(text)?.[1];
    if (!id) throw new Error(`no integer run id in ${text}`);
    return id;
  }

  async function createRun(server: TestrunServer, headers: Record<string, string> = {}) {
    const answer = await post(
      server,
      '/api/v1/runs',
      { project: 'shop', framework: 'vitest', tags: ['ci'] },
      { headers },
    );
    expect(answer.status).toBe(201);
    return { id: idIn(answer.text), answer };
  }

  it('migrates the database once, and each serves the runs and results the other accepted', async () => {
    const { id: fromOne } = await createRun(one);
    const { id: fromOther } = await createRun(other);
    const batch = { results: [result(), result({ testCase: 'cart > removes an item', status: 'failed' })] };
    expect((await post(one, `/api/v1/runs/${fromOther}/results`, batch)).status).toBe(201);

    const results = await get(other, `/api/v1/runs/${fromOther}/results`);
    expect(results.body).toEqual(batch.results.map((stored) => ({ ...stored, runId: fromOther })));
    const listed = await get(one, '/api/v1/runs');
    expect([...listed.text.matchAll(/"id":"?(\d+)/g)].map((match) => match[1])).toEqual([fromOther, fromOne]);
    expect(await get(other, `/api/v1/runs/${fromOne}`)).toMatchObject({ status: 200 });
  });

  it('stores a write once when the same Idempotency-Key is sent to both at once, and both answer alike', async () => {
    const { id: runId } = await createRun(one);
    for (let round = 0; round < 10; round++) {
      const batch = {
        results: [result({ testCase: `round ${round} > a` }), result({ testCase: `round ${round} > b` })],
      };
      const headers = { 'idempotency-key': `batch-${round}` };
      const answers = await Promise.all([
        post(one, `/api/v1/runs/${runId}/results`, batch, { headers }),
        post(other, `/api/v1/runs/${runId}/results`, batch, { headers }),
      ]);
      expect(answers.map(({ status }) => status)).toEqual([201, 201]);
      expect(answers[1]!.text).toBe(answers[0]!.text);
      expect(answers.filter(({ headers }) => headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    }
    const stored = (await get(other, `/api/v1/runs/${runId}/results`)).body as { testCase: string }[];
    expect(stored).toHaveLength(20);
    expect(new Set(stored.map(({ testCase }) => testCase)).size).toBe(20);
  });

  it('creates one run for one Idempotency-Key sent to both, and answers both with it', async () => {
    const headers = { 'idempotency-key': 'create-once' };
    const [first, second] = await Promise.all([createRun(one, headers), createRun(other, headers)]);
    expect(second.id).toBe(first.id);
    expect(second.answer.headers.get('location')).toBe(first.answer.headers.get('location'));
    const listed = await get(one, '/api/v1/runs');
    expect([...listed.text.matchAll(/"id":"?(\d+)/g)]).toHaveLength(1);
  });

  it('never hands out one integer run id twice, however the creations interleave', async () => {
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, n) => createRun(n % 2 === 0 ? one : other)),
    );
    const ids = created.map(({ id }) => BigInt(id));
    expect(new Set(ids).size).toBe(30);
    expect(ids.every((id) => id > 2n ** 53n)).toBe(true);
    const listed = await get(other, '/api/v1/runs');
    expect([...listed.text.matchAll(/"id":"?(\d+)/g)]).toHaveLength(30);
  });
});
