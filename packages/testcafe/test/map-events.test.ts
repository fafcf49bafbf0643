import fs from 'node:fs';
import type { FileReport } from '@testrun/core';
import { TESTCAFE_RESULTS } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { browserLabels, mapTestDone } from '../src/map-events.js';
import type { TestDoneRecord } from '../src/record-events.js';

// The mapping, on what the reporter kept of a real TestCafe 3 run of the fixture in two
// browsers of Debian's Chromium, in quarantine mode (fixtures/recorded/two-browsers.jsonl,
// recorded by fixtures/record.mjs).

const lines = fs
  .readFileSync(new URL('./fixtures/recorded/two-browsers.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { name: string; aliases?: string[]; record?: TestDoneRecord });
const aliases = lines.find((line) => line.name === 'taskStart')!.aliases!;
const records = lines.flatMap((line) => (line.record ? [line.record] : []));

/** (file, project, titles, status) of every FileReport's tests, as core gets them. */
function flat(reports: readonly FileReport[]) {
  return reports.flatMap(({ file, project, tests }) =>
    tests.map((test) => ({
      file,
      project: project?.name,
      titles: test.titles.join(' > '),
      status: test.status,
    })),
  );
}

describe('a recorded run in two browsers', () => {
  const labels = browserLabels(aliases);
  const reports = records.flatMap((record) => mapTestDone(record, labels));

  it('is a FileReport per test and browser: the fixture’s file, the browser’s label as the project', () => {
    const expected = ['chromium:headless', 'chromium:headless:emulation:width=800;height=600'].flatMap(
      (project) =>
        TESTCAFE_RESULTS.map(({ testSuite, testCase, status }) => ({
          file: `/checkout/${testSuite}`,
          project,
          titles: testCase,
          status,
        })),
    );
    const key = (item: { file: string; project?: string; titles: string }) =>
      `${item.project} ${item.file} ${item.titles}`;
    expect(flat(reports).sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      expected.sort((a, b) => key(a).localeCompare(key(b))),
    );
  });

  it('gives a failed test its last attempt’s error and the attempts, and a test that passed on a retry its attempts', () => {
    const test = (titles: string, project: string) =>
      reports.find(
        (report) => report.project?.name === project && report.tests[0]!.titles.join(' > ') === titles,
      )!.tests[0]!;
    const failed = test('cart > applies a coupon', 'chromium:headless');
    expect(failed.failure).toEqual({
      errors: [
        {
          message: 'AssertionError: expected 9 to deeply equal 8\n\n+ expected - actual\n\n-9\n+8',
          stack: expect.stringMatching(/^ +at <anonymous> \(\/checkout\/tests\/cart\.test\.js:12:26\)/),
        },
      ],
      attempts: 3,
    });
    const unloaded = test('cart > opens the checkout', 'chromium:headless:emulation:width=800;height=600');
    expect(unloaded.failure?.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Failed to load the page at "http:\/\/127\.0\.0\.1:9\/checkout"\./),
    });
    expect(test('cart > keeps the basket on reload', 'chromium:headless').attempts).toBe(2);
    expect(test('account > signs in', 'chromium:headless').attempts).toBeUndefined();
  });
});

describe('browser labels', () => {
  it('are the aliases without their arguments, unless two browsers share one: then the whole aliases', () => {
    expect([...browserLabels(['chrome:headless --no-sandbox', 'firefox:headless']).values()]).toEqual([
      'chrome:headless',
      'firefox:headless',
    ]);
    expect([...browserLabels(['chrome --lang=de', 'chrome --lang=fr', 'edge']).values()]).toEqual([
      'chrome --lang=de',
      'chrome --lang=fr',
      'edge',
    ]);
  });
});

it('tells the errors of two browsers with the same user agent apart by their test run', () => {
  const record: TestDoneRecord = {
    name: 'pays',
    fixture: { name: 'checkout', path: '/p/checkout.test.js' },
    skipped: false,
    durationMs: 10,
    browsers: [
      { alias: 'chrome', prettyUserAgent: 'Chrome 1', testRunId: 'a', attempts: 1 },
      { alias: 'chrome --lang=de', prettyUserAgent: 'Chrome 1', testRunId: 'b', attempts: 1 },
    ],
    errors: [{ testRunId: 'b', userAgent: 'Chrome 1', text: 'Error: no' }],
  };
  const labels = browserLabels(['chrome', 'chrome --lang=de']);
  expect(flat(mapTestDone(record, labels)).map(({ project, status }) => [project, status])).toEqual([
    ['chrome', 'passed'],
    ['chrome --lang=de', 'failed'],
  ]);
});
