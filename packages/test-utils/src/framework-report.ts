import fs from 'node:fs';
import path from 'node:path';
import type { StoredRun } from '@testrun/server';
import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { tempDir } from './temp-dir.js';

// The frameworks' own JSON reports (`vitest --reporter=json`, `jest --json`), to hold
// what the service stored against what the framework itself says ran.

/** Vitest fixture configs add the json reporter, writing to this file, when this variable is set. */
export const JSON_REPORT_VAR = 'FIXTURE_JSON_REPORT';

/** One test as the framework's JSON report lists it, with the project the run was filtered to. */
export interface FrameworkTest {
  /** Absolute path of the test file. */
  file: string;
  project: string | undefined;
  titles: string[];
  status: string;
}

export interface JsonReport {
  /** Where the report is written. */
  file: string;
  /** Arguments that make the framework write it (Jest); Vitest's come through `env`. */
  args: string[];
  env: Record<string, string>;
}

/** How to have `framework` write its JSON report into a fresh temp file. */
export function jsonReport(framework: 'vitest' | 'jest'): JsonReport {
  const file = path.join(tempDir('testrun-json-'), 'report.json');
  return framework === 'jest'
    ? { file, args: ['--json', `--outputFile=${file}`], env: {} }
    : { file, args: [], env: { [JSON_REPORT_VAR]: file } };
}

/**
 * The tests a JSON report lists (Vitest's and Jest's share this shape). Neither names the
 * project a test ran in, so a run filtered to one project says it: `project`.
 */
export function readJsonReport(file: string, project?: string): FrameworkTest[] {
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    testResults: {
      name: string;
      assertionResults: { ancestorTitles: string[]; title: string; status: string }[];
    }[];
  };
  return report.testResults.flatMap(({ name, assertionResults }) =>
    assertionResults.map(({ ancestorTitles, title, status }) => ({
      file: name,
      project,
      titles: [...ancestorTitles, title],
      status,
    })),
  );
}

/**
 * How often each distinct key occurs, largest first. Two lists of names with the same
 * profile have as many distinct names as each other: when one is the other renamed, the
 * renaming gave no two different things the same name.
 */
export function sharingProfile(keys: readonly string[]): number[] {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts.values()].sort((a, b) => b - a);
}

/** A framework test's identity: file, project and full name. */
export function frameworkIdentity({ file, project, titles }: FrameworkTest): string {
  return JSON.stringify([file, project ?? null, titles]);
}

/** A stored result's identity: (testSuite, testCase). */
export function storedIdentity({ testSuite, testCase }: { testSuite: string; testCase: string }): string {
  return JSON.stringify([testSuite, testCase]);
}

/** The arguments that run only `project`: Vitest's --project, Jest's --selectProjects. */
export function onlyProject(framework: 'vitest' | 'jest', project: string): string[] {
  return framework === 'vitest' ? ['--project', project] : ['--selectProjects', project];
}

/** The results of the one run of `server` tagged `tag` (TESTRUN_TAGS), so a block can tell its runs apart. */
export function resultsTagged(server: TestServer, tag: string) {
  return resultsOfTheRun(server, (run) => run.tags.includes(tag), `runs tagged ${tag}`);
}

/** The results of the one run `framework` made on `server` (failing the test unless there is exactly one). */
export function resultsOfFramework(server: TestServer, framework: string) {
  return resultsOfTheRun(server, (run) => run.framework === framework, `runs of ${framework}`);
}

/**
 * The failed results among `results` that do not say why (no `details.message`), as
 * `testSuite | testCase`: every adapter hands core what failed a test, a file or the run
 * (docs/design/failure-details.md#every-failed-result-says-why), so a test expects none.
 */
export function unexplainedFailures(
  results: readonly { testSuite: string; testCase: string; status: string; details?: { message?: string } }[],
): string[] {
  return results
    .filter((result) => result.status === 'failed' && !result.details?.message?.trim())
    .map((result) => `${result.testSuite} | ${result.testCase}`);
}

async function resultsOfTheRun(server: TestServer, which: (run: StoredRun) => boolean, what: string) {
  const runs = (await server.server.store.runs()).filter(which);
  expect(runs, what).toHaveLength(1);
  return await server.server.store.results(runs[0]!.id);
}

/**
 * The identity property: within the stored `results`, two share (testSuite, testCase) only
 * if the framework's own reports list two tests with the same file, project and full name.
 * Results that stand for a file or the run are no framework test, so they are left out.
 */
export function expectNamesShared(
  results: readonly { testSuite: string; testCase: string }[],
  frameworkTests: readonly FrameworkTest[],
): void {
  const tests = results.filter(
    (result) => result.testCase !== '(file failed to run)' && result.testSuite !== '(run)',
  );
  expect(tests.length).toBe(frameworkTests.length);
  expect(sharingProfile(tests.map(storedIdentity))).toEqual(
    sharingProfile(frameworkTests.map(frameworkIdentity)),
  );
}
