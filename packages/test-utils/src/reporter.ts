import fs from 'node:fs';
import path from 'node:path';
import { type RawResult, RunReporter, type TestrunOptions } from '@testrun/core';
import { tempDir } from './temp-dir.js';

export interface ReporterUnderTest {
  reporter: RunReporter;
  /** Everything the reporter wrote, line by line. */
  lines: string[];
  spoolDir: string;
}

/** A core RunReporter aimed at `url`, writing into an array instead of stderr, spooling into a fresh temp dir. */
export function createReporter(
  url: string,
  apiKey: string,
  options: TestrunOptions = {},
  env: NodeJS.ProcessEnv = {},
): ReporterUnderTest {
  const lines: string[] = [];
  const spoolDir = options.spoolDir ?? tempDir('testrun-spool-');
  const reporter = new RunReporter({
    options: { apiKey, baseUrl: url, project: 'core-tests', ciTags: false, spoolDir, ...options },
    framework: { name: 'vitest', version: '4.0.0' },
    rootDir: process.cwd(),
    env,
    write: (text) => lines.push(...text.split('\n').filter(Boolean)),
  });
  return { reporter, lines, spoolDir };
}

/** `count` distinct passing results named `case 0`, `case 1`, … in `suite`. */
export function makeResults(count: number, suite = 'suite.test.ts'): RawResult[] {
  return Array.from({ length: count }, (_, i) => ({
    testSuite: suite,
    testCase: `case ${i}`,
    status: 'passed' as const,
    duration: i % 7,
  }));
}

/** Lines of every spool file in `dir` (or of `file` in it), parsed. */
export function readSpoolLines(dir: string, file?: string): Record<string, unknown>[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => (file === undefined ? name.endsWith('.ndjson') : name === file))
    .flatMap((name) => fs.readFileSync(path.join(dir, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line));
}
