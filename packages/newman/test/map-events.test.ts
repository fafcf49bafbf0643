import fs from 'node:fs';
import { identities, NEWMAN_SHOP_RESULTS } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { type NewmanEvent, NewmanMapping, statusOf } from '../src/map-events.js';

// The mapping, on what the reporter kept of a real Newman 6 run of the shop collection with
// its two iterations (fixtures/recorded/shop.jsonl, recorded by fixtures/record.mjs).

const recorded = fs
  .readFileSync(new URL('./fixtures/recorded/shop.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as NewmanEvent);

function resultsOf(events: readonly NewmanEvent[], collection = 'Shop API') {
  const mapping = new NewmanMapping(collection);
  return events.flatMap((event) => {
    const result = mapping.take(event);
    return result ? [result] : [];
  });
}

describe('a recorded run of the shop collection', () => {
  const results = resultsOf(recorded);

  it('is a result per request and iteration: the collection, its folders, the request', () => {
    expect(
      identities(
        results.map(({ testSuite, testCase, status }) => ({ testSuite, testCase, status }) as never),
      ),
    ).toEqual(identities(NEWMAN_SHOP_RESULTS));
  });

  it('says why each failed: the request’s error, the script’s, every failed assertion', () => {
    const failures = Object.fromEntries(
      results
        .filter((result) => result.status === 'failed')
        .map((result) => [result.testCase, result.failure]),
    );
    expect(failures['users > get user (iteration 2)']).toEqual({
      errors: [
        { message: 'status is 200: expected response to have status code 200 but got 404' },
        { message: 'has a name: expected undefined to be a string' },
      ],
    });
    expect(failures['unreachable (iteration 1)']?.errors?.[0]).toEqual({
      message: 'GET http://127.0.0.1:9/status: connect ECONNREFUSED 127.0.0.1:9',
    });
    // Postman's sandbox hands a script's error over without a stack.
    expect(failures['broken script (iteration 1)']).toEqual({
      errors: [{ message: 'test script: ReferenceError: undefinedHelper is not defined' }],
    });
  });

  it('takes the response time as the duration', () => {
    const passed = results.find((result) => result.testCase === 'users > list users (iteration 1)');
    expect(passed?.duration).toEqual(expect.any(Number));
    expect(
      results.find((result) => result.testCase === 'unreachable (iteration 1)')?.duration,
    ).toBeUndefined();
  });
});

describe('a request’s status', () => {
  const item = { sent: true, requestError: undefined, assertions: [], scriptErrors: [] };

  it('is skipped when it was not sent (pm.execution.skipRequest) or every assertion was skipped', () => {
    expect(statusOf({ ...item, sent: false })).toBe('skipped');
    expect(statusOf({ ...item, assertions: [{ name: 'a', skipped: true }] })).toBe('skipped');
    expect(
      statusOf({
        ...item,
        assertions: [
          { name: 'a', skipped: true },
          { name: 'b', skipped: false },
        ],
      }),
    ).toBe('passed');
  });

  it('is passed for a request without assertions, and failed by a prerequest script that threw before it was sent', () => {
    expect(statusOf(item)).toBe('passed');
    expect(statusOf({ ...item, sent: false, scriptErrors: [{ script: 'prerequest', error: {} }] })).toBe(
      'failed',
    );
  });
});

it('names a single iteration’s requests without the iteration, and a nameless one (unnamed)', () => {
  const events: NewmanEvent[] = [
    { name: 'beforeItem', ref: 'a', titles: ['folder', ''], iteration: 0, iterations: 1 },
    { name: 'request', ref: 'a', request: 'GET http://x/', responseTime: 3 },
    { name: 'item', ref: 'a' },
  ];
  expect(resultsOf(events, 'API')).toEqual([
    { testSuite: 'API', testCase: 'folder > (unnamed)', status: 'passed', duration: 3, failure: undefined },
  ]);
});

it('fails the requests a run ended in the middle of, with what each had seen', () => {
  const mapping = new NewmanMapping('Shop API');
  const begun = recorded.findIndex((event) => event.name === 'request');
  // The run ends after the first request was answered, before its item ended.
  for (const event of recorded.slice(0, begun + 1)) mapping.take(event);
  const [unfinished, ...more] = mapping.unfinished();
  expect(more).toEqual([]);
  expect(unfinished).toMatchObject({
    testSuite: 'Shop API',
    status: 'failed',
    failure: { errors: [{ message: 'the run ended before this request ended' }] },
  });
  expect(mapping.unfinished()).toEqual([]);
});
