import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretPattern } from '../../src/output/redact.js';
import { FAILURE_DETAIL_LIMITS, toFailureDetails } from '../../src/results/failure-details.js';

// What a runner says about a failure, made into the `failure-details` extension's fields
// (docs/design/failure-details.md#shape), whatever shape the runner said it in.

const root = path.resolve('/repo');
const file = path.join(root, 'src', 'cart.test.ts');
const context = { file, rootDir: root, secrets: undefined };

describe('toFailureDetails', () => {
  it('reads an Error: its message, its stack, and the test file’s first line in it', () => {
    const error = new Error('expected 1 to be 2');
    error.stack = `Error: expected 1 to be 2\n    at helper (${path.join(root, 'src', 'helper.ts')}:3:7)\n    at ${file}:14:9`;
    expect(toFailureDetails({ errors: [error] }, context)).toEqual({
      message: 'expected 1 to be 2',
      stack: error.stack,
      location: 'src/cart.test.ts:14:9',
    });
  });

  it('finds the location as a file URL too (ESM stacks)', () => {
    const stack = `Error: x\n    at file://${file}:5:3`;
    expect(toFailureDetails({ errors: [{ message: 'x', stack }] }, context)?.location).toBe(
      'src/cart.test.ts:5:3',
    );
  });

  it('takes the runner’s own location over the stack, relative to the root', () => {
    const details = toFailureDetails(
      { errors: [{ message: 'x', stack: `at ${file}:1:1` }], location: { file, line: 20, column: 4 } },
      context,
    );
    expect(details?.location).toBe('src/cart.test.ts:20:4');
  });

  it('falls back to where the test is declared when the stack names no line of the test file', () => {
    const declaredAt = { file, line: 30, column: 3 };
    expect(
      toFailureDetails(
        { errors: [{ message: 'x', stack: 'Error: x\n    at node:internal' }], declaredAt },
        context,
      )?.location,
    ).toBe('src/cart.test.ts:30:3');
    expect(
      toFailureDetails({ errors: [{ message: 'x', stack: `at ${file}:4:2` }], declaredAt }, context)
        ?.location,
    ).toBe('src/cart.test.ts:4:2');
  });

  it('splits text (Jest’s failureMessages) into the message before the first frame and the whole as stack', () => {
    const text = `\u001b[31mexpect(received).toBe(expected)\u001b[39m\n\nExpected: 2\n    at Object.<anonymous> (${file}:8:15)`;
    expect(toFailureDetails({ errors: [text] }, context)).toEqual({
      message: 'expect(received).toBe(expected)\n\nExpected: 2',
      stack: `expect(received).toBe(expected)\n\nExpected: 2\n    at Object.<anonymous> (${file}:8:15)`,
      location: 'src/cart.test.ts:8:15',
    });
  });

  it('reads the message off the stack of an error whose message is empty (Jest’s afterAll errors)', () => {
    const stack = `Error: teardown failed\n    at Object.<anonymous> (${file}:2:9)`;
    expect(toFailureDetails({ errors: [{ message: '', stack }] }, context)).toEqual({
      message: 'Error: teardown failed',
      stack,
      location: 'src/cart.test.ts:2:9',
    });
  });

  it('says how many more errors there were, and keeps attempts', () => {
    expect(toFailureDetails({ errors: ['first', 'second', 'third'], attempts: 3 }, context)).toEqual({
      message: 'first\n(and 2 more errors)',
      attempts: 3,
    });
  });

  it(`cuts a message past ${FAILURE_DETAIL_LIMITS.message} and a stack past ${FAILURE_DETAIL_LIMITS.stack} code units, and says so`, () => {
    const details = toFailureDetails(
      { errors: [{ message: 'm'.repeat(10_000), stack: 's'.repeat(50_000) }] },
      context,
    );
    expect(details?.message).toHaveLength(FAILURE_DETAIL_LIMITS.message);
    expect(details?.message?.endsWith('… (truncated)')).toBe(true);
    expect(details?.stack).toHaveLength(FAILURE_DETAIL_LIMITS.stack);
  });

  it('redacts the API key in every field, escaped forms included', () => {
    const key = 'tr_secret+key/42';
    const details = toFailureDetails(
      {
        errors: [
          { message: `Expected "${key}"`, stack: `Error: ${encodeURIComponent(key)} ${JSON.stringify(key)}` },
        ],
      },
      { ...context, secrets: secretPattern([key]) },
    );
    expect(JSON.stringify(details)).not.toContain('secret');
    expect(details?.message).toBe('Expected "***"');
  });

  it('is undefined when the runner said nothing, and never throws on a hostile error', () => {
    expect(toFailureDetails(undefined, context)).toBeUndefined();
    expect(toFailureDetails({ errors: [] }, context)).toBeUndefined();
    const hostile = {
      get message(): string {
        throw new Error('getter');
      },
    };
    expect(toFailureDetails({ errors: [hostile] }, context)).toBeUndefined();
    expect(toFailureDetails({ errors: ['x'], attempts: 0 }, context)).toEqual({ message: 'x' });
  });
});
