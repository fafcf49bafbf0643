import { storeEngines } from '@testrun/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DURATION, MAX_LABEL_LENGTH } from '../../src/api/write.js';
import { createRun, get, post, result, serverOn } from '../client.js';

// Issue 42: our reporters clean names before sending, another client does not. Whatever JSON can
// carry within the spec's schema, a write is stored and read back exactly as sent, or refused with
// a 4xx naming the field — on both engines alike, never a 500 (which a client retries, spools and
// replays for ever) and never a value changed on the way
// (docs/design/server-storage.md#what-a-write-may-hold).

/** A character any text may hold: every plane, control characters and odd ones weighted up; not NUL, no lone surrogate. */
const storableCharacter = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...[
        '\u0001',
        '\t',
        '\n',
        '\u001b',
        '\u007f',
        '\u0085',
        '\u2028',
        '\ufeff',
        '\ufffd',
        '\ufffe',
        '\uffff',
      ],
      ...['\u{10000}', '\u{1f600}', '\u{10ffff}', '\u{e0001}'],
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .integer({ min: 1, max: 0x10ffff })
      .filter((code) => code < 0xd800 || code > 0xdfff)
      .map((code) => String.fromCodePoint(code)),
  },
);

/** What JSON carries and no engine stores: NUL, and a surrogate without its other half. */
const unstorableCharacter = fc.oneof(
  fc.constant('\u0000'),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
);

const shortText = fc.string({ unit: storableCharacter, maxLength: 24 });

/** 100 KB of a text repeated, or of characters from every plane (more than any index entry holds). */
const hundredKb = fc.oneof(
  fc
    .string({ unit: storableCharacter, minLength: 1, maxLength: 8 })
    .map((text) => text.repeat(Math.ceil(100_000 / text.length)).slice(0, 100_000)),
  fc.integer().map((seed) => planeText(seed, 100_000)),
);

const text = fc.oneof(
  { weight: 12, arbitrary: shortText },
  {
    weight: 1,
    arbitrary: fc
      .tuple(shortText, unstorableCharacter, shortText)
      .map(([before, bad, after]) => before + bad + after),
  },
  { weight: 1, arbitrary: hundredKb },
);

const duration = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: 0, max: MAX_DURATION, noNaN: true }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(0, Number.MIN_VALUE, 1e-300, 0.1, MAX_DURATION, MAX_DURATION + 0.5, 1e308),
  },
  { weight: 1, arbitrary: fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }) },
);

/** Mostly a text the schema takes where it wants one (a project, a location), sometimes any. */
const filledText = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: storableCharacter, minLength: 1, maxLength: 24 }) },
  { weight: 1, arbitrary: text },
);

const details = fc.record(
  {
    message: text,
    stack: text,
    location: filledText,
    attempts: fc.integer({ min: 1, max: 1_000 }),
  },
  { requiredKeys: [] },
);

const oneResult = fc.record(
  {
    testSuite: text,
    testCase: text,
    status: fc.constantFrom('passed', 'failed', 'skipped', 'todo'),
    duration,
    details,
  },
  { requiredKeys: ['testSuite', 'testCase', 'status', 'duration'] },
);

const runPayload = fc.record(
  { project: filledText, framework: filledText, tags: fc.array(text, { maxLength: 3 }) },
  { requiredKeys: ['project', 'framework'] },
);

describe.each(storeEngines())('the write API, given what JSON allows, on $name', (engine) => {
  const startServer = serverOn(engine);

  // The table, and the same rule on every other text a write holds.
  it.each([
    ['a NUL in testSuite', { testSuite: 'a\u0000b' }, 'results/0/testSuite contains NUL (U+0000) at index 1'],
    ['a NUL in testCase', { testCase: 'x\u0000y' }, 'results/0/testCase contains NUL (U+0000) at index 1'],
    [
      'a lone surrogate in testSuite',
      { testSuite: 's\ud800t' },
      'results/0/testSuite contains an unpaired surrogate (U+D800) at index 1',
    ],
    [
      'a NUL in the failure details',
      { status: 'failed', details: { message: 'expected \u0000' } },
      'results/0/details/message contains NUL (U+0000) at index 9',
    ],
    [
      'a lone surrogate in the failure details',
      { status: 'failed', details: { stack: '\udc00 at x.js:1' } },
      'results/0/details/stack contains an unpaired surrogate (U+DC00) at index 0',
    ],
    ['a duration past the bound', { duration: 1e308 }, `results/0/duration must be <= ${MAX_DURATION}`],
  ])('refuses a result with %s with a 400 naming the field', async (_case, fields, message) => {
    const server = await startServer();
    const runId = await createRun(server);
    const answer = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result(fields)],
    });
    expect(answer.status).toBe(400);
    expect((answer.body as Refusal).error.code).toBe('invalid_request');
    expect((answer.body as Refusal).error.message).toContain(message);
    expect(await server.store.results(runId)).toEqual([]);
  });

  it.each([
    ['a NUL in the project', { project: 'shop\u0000' }, 'project contains NUL (U+0000) at index 4'],
    [
      'a lone surrogate in the framework',
      { framework: '\udfff' },
      'framework contains an unpaired surrogate',
    ],
    ['a NUL in a tag', { tags: ['ok', 't\u0000u'] }, 'tags/1 contains NUL (U+0000) at index 1'],
    [
      'a tag past the bound',
      { tags: ['x'.repeat(MAX_LABEL_LENGTH + 1)] },
      `tags/0 must NOT have more than ${MAX_LABEL_LENGTH} characters`,
    ],
  ])('refuses a run with %s with a 400 naming the field', async (_case, fields, message) => {
    const server = await startServer();
    const answer = await post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest', ...fields });
    expect(answer.status).toBe(400);
    expect((answer.body as Refusal).error.message).toContain(message);
    expect(await server.store.runs()).toEqual([]);
  });

  // Nothing stored holds NUL, so no address with one can find anything; PostgreSQL failed the
  // query instead: a page answered 500, and the bare list of runs was cut off mid-answer.
  it.each([
    ['/api/v1/runs?project=%00', 'query/project'],
    ['/api/v1/runs?tag=a%00b&limit=5', 'query/tag'],
    ['/api/v1/runs/a%00/results', 'params/id'],
    ['/?branch=%00*', 'query/branch'],
    ['/test?project=shop&suite=%00&test=x', 'query/suite'],
  ])('refuses NUL in an address (%s) with a 400 naming the parameter', async (path, field) => {
    const server = await startServer();
    await createRun(server);
    const answer = await get(server, path);
    expect(answer.status).toBe(400);
    expect((answer.body as Refusal).error.message).toMatch(
      new RegExp(`^${field} contains NUL \\(U\\+0000\\)`),
    );
  });

  it('stores names of 100 KB, of 1,024 characters from the far planes and with a leading U+FEFF exactly', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const results = [
      result({ testSuite: planeText(1, 100_000), testCase: planeText(2, 100_000), status: 'failed' }),
      result({ testSuite: planeText(3, 1_024), testCase: planeText(4, 1_024) }),
      // A byte-order mark first, in a text longer than 16 bytes: SQLite's decoder dropped it.
      result({ testSuite: '\ufeffsrc/cart.test.ts', testCase: '\ufeff' }),
    ];
    expect((await post(server, `/api/v1/runs/${runId}/results`, { results })).status).toBe(201);
    expect((await get(server, `/api/v1/runs/${runId}/results`)).body).toEqual(
      results.map((sent) => ({ runId, ...sent })),
    );
  });

  it('stores every write it accepts exactly as sent, and refuses the rest with a 4xx naming the field', async () => {
    const server = await startServer();
    await fc.assert(
      fc.asyncProperty(
        runPayload,
        fc.array(oneResult, { minLength: 1, maxLength: 3 }),
        async (run, results) => {
          const created = await post(server, '/api/v1/runs', run);
          expectStoredOrRefused(created.status, created.body, refusalOfRun(run));
          // What was sent is the JSON: -0 goes as 0.
          [run, results] = JSON.parse(JSON.stringify([run, results]));
          let runId: string;
          if (created.status === 201) {
            runId = (created.body as { id: string }).id;
            expect((await get(server, `/api/v1/runs/${runId}`)).body).toMatchObject({ tags: [], ...run });
          } else {
            runId = await createRun(server);
          }
          const submitted = await post(server, `/api/v1/runs/${runId}/results`, { results });
          const tooLarge = Buffer.byteLength(JSON.stringify({ results })) > 5 * 1024 * 1024;
          expectStoredOrRefused(
            submitted.status,
            submitted.body,
            tooLarge ? 'request body' : refusalOfResults(results),
          );
          if (submitted.status === 201) {
            const read = await get(server, `/api/v1/runs/${runId}/results`);
            expect(read.body).toEqual(results.map((sent) => ({ runId, ...sent })));
          }
        },
      ),
      { numRuns: 40 },
    );
    // Still up after all of it.
    expect((await get(server, '/api/v1/runs?limit=1')).status).toBe(200);
  }, 60_000);
});

interface Refusal {
  error: { code: string; message: string };
}

/** 201, or a 4xx whose message names `expected` (the first field the rules refuse); never a 5xx. */
function expectStoredOrRefused(status: number, body: unknown, expected: string | undefined): void {
  if (expected === undefined) {
    expect(status, JSON.stringify(body)?.slice(0, 300)).toBe(201);
    return;
  }
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
  expect((body as Refusal).error.message.startsWith(`${expected} `), (body as Refusal).error.message).toBe(
    true,
  );
}

/** The field the documented rules refuse in a run, first in the order they are checked; undefined when it is to be stored. */
function refusalOfRun(run: { project: string; framework: string; tags?: string[] }): string | undefined {
  const labels: [string, string][] = [
    ['project', run.project],
    ['framework', run.framework],
    ...(run.tags ?? []).map((tag, i): [string, string] => [`tags/${i}`, tag]),
  ];
  const schema = labels.find(
    ([field, value]) =>
      [...value].length > MAX_LABEL_LENGTH || (!field.startsWith('tags/') && !/\S/u.test(value)),
  );
  return schema?.[0] ?? labels.find(([, value]) => unstorable(value))?.[0];
}

/** The same for results: the schema's bounds result by result (duration, then details in the schema's order), then the text rule. */
function refusalOfResults(results: readonly Record<string, unknown>[]): string | undefined {
  const limits = { message: 4_096, stack: 16_384, location: 1_024 };
  const schema = results
    .map((sent, i) => {
      if (Number(sent.duration) > MAX_DURATION) return `results/${i}/duration`;
      const details = (sent.details ?? {}) as Record<string, string>;
      const over = Object.entries(limits).find(
        ([name, limit]) =>
          details[name] !== undefined &&
          ([...details[name]].length > limit || (details[name] === '' && name === 'location')),
      );
      return over && `results/${i}/details/${over[0]}`;
    })
    .find(Boolean);
  const texts = results.flatMap((sent, i) =>
    [
      ['testSuite', sent.testSuite],
      ['testCase', sent.testCase],
      ...Object.entries((sent.details ?? {}) as object),
    ].map(([name, value]) => [
      name === 'testSuite' || name === 'testCase' ? `results/${i}/${name}` : `results/${i}/details/${name}`,
      value,
    ]),
  );
  return schema ?? texts.find(([, value]) => typeof value === 'string' && unstorable(value))?.[0];
}

function unstorable(value: string): boolean {
  return value.includes('\u0000') || !value.isWellFormed();
}

/** `length` characters (code points) from every plane, astral ones included, by a seeded generator. */
function planeText(seed: number, length: number): string {
  let state = seed >>> 0 || 1;
  const points: number[] = [];
  while (points.length < length) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const code = (state >>> 0) % 0x110000;
    if (code === 0 || (code >= 0xd800 && code <= 0xdfff)) continue;
    points.push(code);
  }
  let text = '';
  for (let i = 0; i < points.length; i += 10_000)
    text += String.fromCodePoint(...points.slice(i, i + 10_000));
  return text;
}
