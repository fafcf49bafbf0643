import type { FileReport, RawResult } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import type { MappedCase } from '../../src/junit/map-junit.js';
import { MAX_GROUP_SIZE, ResultFeeder, type ResultSink } from '../../src/junit/result-feeder.js';

/** Records what the feeder hands over, in order, as core's RunReporter would receive it. */
function recordingSink() {
  const calls: ({ addFile: FileReport } | { addResults: RawResult[] })[] = [];
  const sink: ResultSink = {
    addFile: (report) => calls.push({ addFile: { ...report, tests: [...report.tests] } }),
    addResults: (results) => calls.push({ addResults: [...results] }),
  };
  return { sink, calls };
}

const named = (testSuite: string, testCase: string, status: 'passed' | 'failed' = 'passed'): MappedCase => ({
  kind: 'named',
  result: { testSuite, testCase, status, duration: 1 },
});
const inFile = (file: string, title: string, status: 'passed' | 'failed' = 'passed'): MappedCase => ({
  kind: 'file',
  file,
  test: { titles: [title], status, duration: 1 },
});

describe('handing mapped testcases to core', () => {
  it('hands consecutive testcases of one suite over together, a file with its path resolved', () => {
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, '/repo');
    for (const mapped of [named('A', 'a1'), named('A', 'a2'), inFile('test/b.py', 'b1'), named('A', 'a3')]) {
      feeder.add(mapped);
    }
    feeder.flush();
    expect(calls).toEqual([
      { addResults: [named('A', 'a1'), named('A', 'a2')].map((m) => m.kind === 'named' && m.result) },
      { addFile: { file: '/repo/test/b.py', tests: [{ titles: ['b1'], status: 'passed', duration: 1 }] } },
      { addResults: [{ testSuite: 'A', testCase: 'a3', status: 'passed', duration: 1 }] },
    ]);
    expect(feeder.count).toBe(4);
  });

  it('keeps one result per repeated testcase, with its last outcome, where the first one stood', () => {
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, '/repo');
    for (const mapped of [
      named('Gradle', 'retried', 'failed'),
      named('Gradle', 'other'),
      named('Gradle', 'retried', 'passed'),
      inFile('a.test.js', '(file failed to run)', 'failed'),
      inFile('a.test.js', '(file failed to run)', 'failed'),
    ]) {
      feeder.add(mapped);
    }
    feeder.flush();
    expect(calls).toEqual([
      {
        addResults: [
          { testSuite: 'Gradle', testCase: 'retried', status: 'passed', duration: 1 },
          { testSuite: 'Gradle', testCase: 'other', status: 'passed', duration: 1 },
        ],
      },
      {
        addFile: {
          file: '/repo/a.test.js',
          tests: [{ titles: ['(file failed to run)'], status: 'failed', duration: 1 }],
        },
      },
    ]);
    expect([feeder.count, feeder.repeated]).toEqual([3, 2]);
  });

  it(`hands a suite over in groups of ${MAX_GROUP_SIZE}, so memory does not grow with it`, () => {
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, '/repo');
    for (let i = 0; i < MAX_GROUP_SIZE * 2 + 1; i++) feeder.add(named('huge', `case ${i}`));
    feeder.flush();
    expect(calls.map((call) => ('addResults' in call ? call.addResults.length : -1))).toEqual([
      MAX_GROUP_SIZE,
      MAX_GROUP_SIZE,
      1,
    ]);
  });

  it('hands nothing over for nothing', () => {
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, '/repo');
    feeder.flush();
    expect([calls, feeder.count]).toEqual([[], 0]);
  });
});
