import fs from 'node:fs';
import path from 'node:path';
import type { AssertionResult, Test, TestResult } from '@jest/test-result';

// The objects Jest handed a reporter, read back from what fixtures/recorded/recording-reporter.cjs
// wrote down: TestResult and TestCaseResult as they were (they are data), Test as far as it is.

const recorded = path.join(import.meta.dirname, 'fixtures', 'recorded');
/** Where the recorded project is on this machine: its files' paths in the recording are under it. */
export const RECORDED_PROJECT = path.join(recorded, 'project');

export interface RecordedFile {
  test: Test;
  testResult: TestResult;
}

interface Recording {
  framework: 'jest';
  version: string;
  files: RecordedFile[];
  /** The Test that came with each file's first onTestCaseResult, in the order of `files`. */
  caseResultTests: Test[];
  /** unfinished.test.js when its first test had ended and its second still ran. */
  unfinished: { test: Test; assertions: AssertionResult[] };
}

export function recording(): Recording {
  const text = fs
    .readFileSync(path.join(recorded, 'results.json'), 'utf8')
    .replaceAll('<project>', RECORDED_PROJECT)
    .replaceAll('<repo>', path.resolve(recorded, '../../../../..'));
  return JSON.parse(text) as Recording;
}

/** The recorded file `name` (relative to the project). */
export function fileNamed(files: readonly RecordedFile[], name: string): RecordedFile {
  const file = files.find((candidate) => candidate.test.path === path.join(RECORDED_PROJECT, name));
  if (!file) throw new Error(`no recorded file ${name}`);
  return file;
}
