import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readQuarantineList } from '../../src/quarantine/list.js';
import { testKey } from '../../src/quarantine/test-key.js';
import { VERDICT_PART_SUFFIX as READ } from '../../src/quarantine/verdict-part.js';
import { QuarantineWatch, type QuarantineWatchInit } from '../../src/quarantine/watch.js';
import { FILE_FAILURE_CASE, RUN_SUITE } from '../../src/results/result-name.js';
import { VERDICT_PART_SUFFIX as WRITTEN } from '../../src/run-end/quarantine-hand-off.js';

// One process's failures against its run's quarantine list (docs/design/quarantine.md): each judged
// once the list is known, why each that fails the build does, and the mark on what is sent.

const FLAKY = { testSuite: 'src/cart.test.ts', testCase: 'cart > rounds' };
const OTHER = { testSuite: 'src/cart.test.ts', testCase: 'cart > adds' };
const OLD = { testSuite: 'src/old.test.ts', testCase: 'old > one' };
const ELSEWHERE = { testSuite: 'src/api.test.ts', testCase: 'api > only there' };
type Named = { testSuite: string; testCase: string };
const failed = (test: Named) => ({ ...test, status: 'failed', duration: 1 });
const passed = (test: Named) => ({ ...test, status: 'passed', duration: 1 });

function listBody(project = 'shop') {
  return JSON.stringify({
    runId: 'r1',
    project,
    tests: [{ key: testKey(FLAKY.testSuite, FLAKY.testCase), expiresAt: '2999-01-01T00:00:00.000Z' }],
    expired: [{ key: testKey(OLD.testSuite, OLD.testCase), expiredAt: '2026-03-04T05:06:07.000Z' }],
    elsewhere: [{ key: testKey(ELSEWHERE.testSuite, ELSEWHERE.testCase), project: 'api' }],
  });
}

function watchOf(read: QuarantineWatchInit['read']) {
  return new QuarantineWatch({
    failedStatus: 'failed',
    notTests: { fileFailureCase: FILE_FAILURE_CASE, runSuite: RUN_SUITE },
    read,
  });
}

const never = new Promise<void>(() => {});

describe('a quarantine watch', () => {
  it('judges each failure once the list comes, whenever the failure came, and says why each other one fails the build', async () => {
    let answer!: (body: { ok: true; body: string }) => void;
    const watch = watchOf(() => new Promise((resolve) => (answer = resolve)));
    watch.add([failed(FLAKY), passed(OTHER)]);
    answer({ ok: true, body: listBody() });
    await Promise.resolve();
    watch.add([failed(OTHER), failed(OLD), failed({ testSuite: 'a.test.ts', testCase: FILE_FAILURE_CASE })]);
    watch.add([failed({ testSuite: RUN_SUITE, testCase: 'TypeError' }), failed(ELSEWHERE)]);

    expect(await watch.outcome(never, 'late')).toEqual({
      project: 'shop',
      failures: 6,
      quarantined: [FLAKY],
      quarantinedCount: 1,
      others: [
        { ...OTHER, why: 'not quarantined in project "shop"' },
        { ...OLD, why: 'its quarantine expired on 2026-03-04' },
        {
          testSuite: 'a.test.ts',
          testCase: FILE_FAILURE_CASE,
          why: 'a file that failed to run is never quarantined',
        },
        {
          testSuite: RUN_SUITE,
          testCase: 'TypeError',
          why: 'an error outside the tests is never quarantined',
        },
        { ...ELSEWHERE, why: 'not quarantined in project "shop", only in project "api"' },
      ],
      othersCount: 5,
      listed: 2,
      nearMisses: 2,
    });
    expect(watch.isQuarantined(FLAKY.testSuite, FLAKY.testCase)).toBe(true);
    expect(watch.isQuarantined(OTHER.testSuite, OTHER.testCase)).toBe(false);
  });

  it("marks a quarantined test's failure in a batch's body, and nothing else; a body with nothing to mark stays byte for byte", async () => {
    const watch = watchOf(async () => ({ ok: true, body: listBody() }));
    const body = JSON.stringify({ results: [failed(FLAKY), passed(FLAKY), failed(OTHER)] });
    const marked = JSON.parse(await watch.mark(body)) as { results: { quarantined?: boolean }[] };
    expect(marked.results.map((result) => result.quarantined)).toEqual([true, undefined, undefined]);
    const untouched = JSON.stringify({ results: [failed(OTHER)] });
    expect(await watch.mark(untouched)).toBe(untouched);
  });

  it('never marks what is no test, even when a list names it: a file that failed, an error outside the tests', async () => {
    const file = { testSuite: 'a.test.ts', testCase: FILE_FAILURE_CASE };
    const watch = watchOf(async () => ({
      ok: true,
      body: JSON.stringify({
        tests: [{ key: testKey(file.testSuite, file.testCase), expiresAt: '2999-01-01' }],
      }),
    }));
    const body = JSON.stringify({ results: [failed(file)] });
    expect(await watch.mark(body)).toBe(body);
    watch.add([failed(file)]);
    expect((await watch.outcome(never, 'late')).quarantinedCount).toBe(0);
  });

  it.each([
    [
      { ok: false as const, problem: 'the service answered 503' },
      'the quarantine list could not be read (the service answered 503)',
    ],
    [
      { ok: true as const, body: 'not json' },
      'the quarantine list could not be read (the service answered the quarantine list with something that is not JSON)',
    ],
    [
      { ok: true as const, body: '{"quarantined":[]}' },
      'the quarantine list could not be read (the service answered a quarantine list without "tests")',
    ],
  ])('quarantines nothing when the list cannot be read (%j), and says why', async (answer, unread) => {
    const watch = watchOf(async () => answer);
    watch.add([failed(FLAKY)]);
    expect(await watch.outcome(never, 'late')).toMatchObject({
      failures: 1,
      quarantinedCount: 0,
      othersCount: 1,
      unread,
    });
    const body = JSON.stringify({ results: [failed(FLAKY)] });
    expect(await watch.mark(body)).toBe(body);
  });

  it('quarantines nothing when the list has not come by the time the caller gives up', async () => {
    const watch = watchOf(() => new Promise(() => {}));
    watch.add([failed(FLAKY)]);
    expect(
      await watch.outcome(Promise.resolve(), 'the quarantine list did not come within 30 s'),
    ).toMatchObject({
      quarantinedCount: 0,
      unread: 'the quarantine list did not come within 30 s',
    });
  });

  it('names ten of each kind and counts the rest', async () => {
    const watch = watchOf(async () => ({ ok: true, body: listBody() }));
    watch.add(
      Array.from({ length: 25 }, (_, index) => failed({ testSuite: 'x.test.ts', testCase: `t${index}` })),
    );
    const outcome = await watch.outcome(never, 'late');
    expect(outcome.others).toHaveLength(10);
    expect(outcome.othersCount).toBe(25);
  });
});

describe('the quarantine list', () => {
  it('keeps well-formed keys only, and the project', () => {
    const list = readQuarantineList(
      JSON.stringify({
        project: 'p',
        tests: [{ key: 'A'.repeat(64) }, { key: 'a'.repeat(64), expiresAt: 'x' }, 7],
      }),
    );
    expect(list).toEqual({
      project: 'p',
      active: new Map([['a'.repeat(64), 'x']]),
      expired: new Map(),
      elsewhere: new Map(),
    });
  });
});

describe('a test key', () => {
  it('is the hex SHA-256 of the JSON pair of names, as the local server computes it', () => {
    expect(testKey('a', 'b')).toBe(createHash('sha256').update('["a","b"]').digest('hex'));
    expect(testKey('a\nb', 'c')).not.toBe(testKey('a', 'b\nc'));
  });

  it('and the verdict parts are written under the name they are read by', () => {
    expect(WRITTEN).toBe(READ);
  });
});
