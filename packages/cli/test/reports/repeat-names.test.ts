import type { FileReport, RawResult } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { RepeatFinder, RepeatNamer } from '../../src/reports/repeat-names.js';
import type { ResultSink } from '../../src/reports/result-feeder.js';

/** What the sink receives, flattened to [testSuite or file, testCase or titles, status]. */
function recordingSink() {
  const received: string[][] = [];
  const sink: ResultSink = {
    addFile: (report) => {
      for (const test of report.tests) received.push([report.file, test.titles.join(' > '), test.status]);
    },
    addResults: (results) => {
      for (const result of results)
        received.push([String(result.testSuite), String(result.testCase), result.status]);
    },
  };
  return { sink, received };
}

type Call = { file: FileReport } | { results: RawResult[] };

/** Both reads of an upload: the finder sees every call first, then the namer names them. */
function upload(calls: Call[]) {
  const finder = new RepeatFinder();
  for (const call of calls) {
    if ('file' in call) finder.addFile(call.file);
    else finder.addResults(call.results);
  }
  const { sink, received } = recordingSink();
  const namer = new RepeatNamer(sink, finder.repeated);
  for (const call of calls) {
    if ('file' in call) namer.addFile(call.file);
    else namer.addResults(call.results);
  }
  return { received, renamed: namer.renamed };
}

const result = (
  testSuite: unknown,
  testCase: unknown,
  status: 'passed' | 'failed' = 'passed',
): RawResult => ({
  testSuite,
  testCase,
  status,
  duration: 1,
});

describe('results that repeat a name of the upload', () => {
  it('are sent as results of their own, the second and later with (2), (3)… in the order they come', () => {
    const { received, renamed } = upload([
      { results: [result('utils', 'formats dates', 'failed'), result('utils', 'parses dates')] },
      { results: [result('utils', 'formats dates')] },
      { results: [result('utils', 'formats dates', 'failed')] },
    ]);
    expect(received).toEqual([
      ['utils', 'formats dates', 'failed'],
      ['utils', 'parses dates', 'passed'],
      ['utils', 'formats dates (2)', 'passed'],
      ['utils', 'formats dates (3)', 'failed'],
    ]);
    expect(renamed).toBe(2);
  });

  it('number the last title of a test of a file, and count files apart', () => {
    const test = { titles: ['cart', 'rounds'], status: 'passed' as const, duration: 1 };
    const { received } = upload([
      { file: { file: '/repo/a.test.js', tests: [test, { ...test, status: 'failed' }] } },
      { file: { file: '/repo/b.test.js', tests: [test] } },
    ]);
    expect(received).toEqual([
      ['/repo/a.test.js', 'cart > rounds', 'passed'],
      ['/repo/a.test.js', 'cart > rounds (2)', 'failed'],
      ['/repo/b.test.js', 'cart > rounds', 'passed'],
    ]);
  });

  it('call a nameless one (unnamed), as core does, before numbering it', () => {
    const { received } = upload([
      { results: [result('Suite', undefined), result('Suite', ''), result('Suite', '  ', 'failed')] },
    ]);
    expect(received.map(([, testCase]) => testCase)).toEqual(['undefined', '(unnamed) (2)', '(unnamed) (3)']);
  });

  it('leave every name that does not repeat as it is', () => {
    const { received, renamed } = upload([
      { results: Array.from({ length: 1000 }, (_, i) => result('big', `case ${i}`)) },
    ]);
    expect(received.map(([, testCase]) => testCase)).toEqual(
      Array.from({ length: 1000 }, (_, i) => `case ${i}`),
    );
    expect(renamed).toBe(0);
  });
});
