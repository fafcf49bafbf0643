import type { TestCase, TestResult } from '@playwright/test/reporter';
import { describe, expect, it } from 'vitest';
import { mapTest } from '../src/map-test.js';

// What a test's attempts attached and printed, as mapTest hands it to core.

function attempt(retry: number, status: TestResult['status'], more: Partial<TestResult> = {}): TestResult {
  return {
    retry,
    status,
    duration: 10,
    errors: [],
    attachments: [],
    stdout: [],
    stderr: [],
    ...more,
  } as unknown as TestResult;
}

function testWith(results: TestResult[], outcome: ReturnType<TestCase['outcome']>): TestCase {
  return {
    title: 'pays',
    results,
    outcome: () => outcome,
    expectedStatus: 'passed',
    retries: 1,
    parent: { type: 'file', title: 'checkout.test.js' },
  } as unknown as TestCase;
}

describe('the files of a Playwright test', () => {
  it("are every finished attempt's attachments and output, each with its attempt, Playwright's internal ones left out", () => {
    const mapped = mapTest(
      testWith(
        [
          attempt(0, 'failed', {
            attachments: [
              { name: 'screenshot', contentType: 'image/png', path: '/out/test-failed-1.png' },
              { name: 'trace', contentType: 'application/zip', path: '/out/trace.zip' },
              { name: '_internal', contentType: 'application/json', body: Buffer.from('{}') },
            ],
            stdout: ['paying\n'],
          }),
          attempt(1, 'passed', {
            attachments: [
              { name: 'cart.json', contentType: 'application/json', body: Buffer.from('{"items":2}') },
            ],
            stderr: [Buffer.from('slow\n')],
          }),
          attempt(2, 'interrupted', {
            attachments: [{ name: 'video', contentType: 'video/webm', path: '/out/v.webm' }],
          }),
        ],
        'flaky',
      ),
    )!;
    const files = mapped.test.attachments!.map(({ name, attempt: number, path }) => [name, number, path]);
    expect(files).toEqual([
      ['screenshot', 1, '/out/test-failed-1.png'],
      ['trace', 1, '/out/trace.zip'],
      ['stdout', 1, undefined],
      ['cart.json', 2, undefined],
      ['stderr', 2, undefined],
    ]);
    expect(mapped.test.attempts).toBe(2);
  });

  it('are none for a test that attached and printed nothing', () => {
    expect(mapTest(testWith([attempt(0, 'passed')], 'expected'))!.test.attachments).toBeUndefined();
  });
});
