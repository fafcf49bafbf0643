import type { FileReport, RawResult } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import type { MappedCase } from '../../src/reports/map-junit.js';
import { ReportPaths } from '../../src/reports/report-paths.js';
import { MAX_GROUP_SIZE, ResultFeeder, type ResultSink } from '../../src/reports/result-feeder.js';

/** Records what the feeder hands over, in order, as core's RunReporter would receive it. */
function recordingSink() {
  const calls: ({ addFile: FileReport } | { addResults: RawResult[] })[] = [];
  const sink: ResultSink = {
    addFile: (report) => calls.push({ addFile: { ...report, tests: [...report.tests] } }),
    addResults: (results) => calls.push({ addResults: [...results] }),
  };
  return { sink, calls };
}

const named = (
  testSuite: string,
  testCase: string,
  status: 'passed' | 'failed' = 'passed',
  attemptsOf?: string,
): MappedCase => ({
  kind: 'named',
  result: { testSuite, testCase, status, duration: 1 },
  attemptsOf,
});
const inFile = (file: string, title: string, status: 'passed' | 'failed' = 'passed'): MappedCase => ({
  kind: 'file',
  file,
  test: { titles: [title], status, duration: 1 },
});

const paths = new ReportPaths('/repo', '/repo');

describe('handing mapped testcases to core', () => {
  it('hands consecutive testcases of one suite over together, a file with its path resolved', () => {
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, paths);
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

  it('makes the attempts of one test one result, with the last outcome, where the first one stood', () => {
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, paths);
    for (const mapped of [
      named('Gradle', 'retried', 'failed', 'attempt-key'),
      named('Gradle', 'other'),
      named('Gradle', 'retried', 'passed', 'attempt-key'),
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
    ]);
    expect([feeder.count, feeder.rerun]).toEqual([2, 1]);
  });

  it('keeps every other repeat as a result of its own', () => {
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, paths);
    for (const mapped of [named('Vitest', 'rounds', 'failed'), named('Vitest', 'rounds', 'passed')]) {
      feeder.add(mapped);
    }
    feeder.flush();
    expect(calls).toEqual([
      {
        addResults: [
          { testSuite: 'Vitest', testCase: 'rounds', status: 'failed', duration: 1 },
          { testSuite: 'Vitest', testCase: 'rounds', status: 'passed', duration: 1 },
        ],
      },
    ]);
    expect([feeder.count, feeder.rerun]).toEqual([2, 0]);
  });

  it('makes the testcases that stand for one file that failed to run one result', () => {
    // jest-junit writes a file that did not load as two testcases.
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, paths);
    feeder.add(inFile('a.test.js', '(file failed to run)', 'failed'));
    feeder.add(inFile('a.test.js', '(file failed to run)', 'failed'));
    feeder.flush();
    expect(calls).toEqual([
      {
        addFile: {
          file: '/repo/a.test.js',
          tests: [{ titles: ['(file failed to run)'], status: 'failed', duration: 1 }],
        },
      },
    ]);
  });

  it(`hands a suite over in groups of ${MAX_GROUP_SIZE}, so memory does not grow with it`, () => {
    const { sink, calls } = recordingSink();
    const feeder = new ResultFeeder(sink, paths);
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
    const feeder = new ResultFeeder(sink, paths);
    feeder.flush();
    expect([calls, feeder.count]).toEqual([[], 0]);
  });
});
