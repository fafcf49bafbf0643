import fs from 'node:fs';
import path from 'node:path';
import type {
  FullConfig,
  FullProject,
  Suite,
  TestCase,
  TestError,
  TestResult,
  WorkerInfo,
} from '@playwright/test/reporter';

// The objects Playwright handed a reporter, revived from what
// fixtures/recorded/recording-reporter.cjs wrote down: suites and TestCases linked again as
// Playwright links them, each method answering what it answered then.

const recorded = path.join(import.meta.dirname, 'fixtures', 'recorded');
/** Where the recorded project is on this machine: its files' paths in the recording are under it. */
export const RECORDED_PROJECT = path.join(recorded, 'project');

type RecordedProject = Pick<
  FullProject,
  'name' | 'testDir' | 'testMatch' | 'testIgnore' | 'retries' | 'repeatEach'
>;

interface RecordedSuite {
  type: Suite['type'];
  title: string;
  location?: Suite['location'];
  projectName?: string;
  titlePath: string[];
  entries: (RecordedSuite | RecordedTest)[];
}

interface RecordedTest {
  type: 'test';
  id: string;
  title: string;
  outcome: ReturnType<TestCase['outcome']>;
  ok: boolean;
  titlePath: string[];
  results: TestResult[];
}

interface Recording {
  framework: 'playwright';
  version: string;
  config: { rootDir: string; projects: RecordedProject[] };
  root: RecordedSuite;
  attempts: { testId: string; retry: number }[];
  errors: { error: TestError; projectName?: string }[];
  status: string;
}

export interface RevivedRun {
  version: string;
  config: FullConfig;
  /** The root suite onBegin got. */
  root: Suite;
  /** Each attempt as onTestEnd got it, in order. */
  attempts: { test: TestCase; result: TestResult }[];
  /** Each error as onError got it, with its worker's project. */
  errors: { error: TestError; workerInfo?: WorkerInfo }[];
}

/** run.json (the run as configured) or interrupted.json (stopped by --max-failures). */
export function recording(name: 'run' | 'interrupted'): RevivedRun {
  const text = fs
    .readFileSync(path.join(recorded, `${name}.json`), 'utf8')
    .replaceAll('<project>', RECORDED_PROJECT)
    .replaceAll('<repo>', path.resolve(recorded, '../../../../..'));
  const data = JSON.parse(text) as Recording;
  const projects = data.config.projects as FullProject[];
  const projectNamed = (name: string | undefined) => projects.find((project) => project.name === name);
  const tests = new Map<string, TestCase>();

  const reviveSuite = (suiteData: RecordedSuite, parent: Suite | undefined): Suite => {
    const { entries: entryData, projectName, titlePath, ...fields } = suiteData;
    const entries: (Suite | TestCase)[] = [];
    const suite = {
      ...fields,
      parent,
      suites: [] as Suite[],
      tests: [] as TestCase[],
      project: () => projectNamed(projectName),
      titlePath: () => titlePath,
      entries: () => entries,
      allTests: (): TestCase[] =>
        entries.flatMap((entry) =>
          entry.type === 'test' ? [entry as TestCase] : (entry as Suite).allTests(),
        ),
    } as unknown as Suite;
    for (const entry of entryData) {
      if (entry.type === 'test') {
        const test = reviveTest(entry, suite);
        tests.set(test.id, test);
        entries.push(test);
        suite.tests.push(test);
      } else {
        const child = reviveSuite(entry, suite);
        entries.push(child);
        suite.suites.push(child);
      }
    }
    return suite;
  };
  const root = reviveSuite(data.root, undefined);
  return {
    version: data.version,
    config: {
      rootDir: data.config.rootDir,
      version: data.version,
      projects,
      filteredProjects: projects,
    } as FullConfig,
    root,
    attempts: data.attempts.map(({ testId, retry }) => {
      const test = tests.get(testId)!;
      return { test, result: test.results.find((result) => result.retry === retry)! };
    }),
    errors: data.errors.map(({ error, projectName }) => {
      const project = projectNamed(projectName);
      // Of a WorkerInfo, the adapter reads its project.
      return project ? { error, workerInfo: { project } as WorkerInfo } : { error };
    }),
  };
}

function reviveTest(data: RecordedTest, parent: Suite): TestCase {
  const { outcome, ok, titlePath, results, ...fields } = data;
  return {
    ...fields,
    parent,
    results: results.map((result) => ({ ...result, startTime: new Date(result.startTime) })),
    outcome: () => outcome,
    ok: () => ok,
    titlePath: () => titlePath,
  } as unknown as TestCase;
}

/** The tests of `file` (relative to the project) in the project named `projectName`. */
export function testsIn(run: RevivedRun, file: string, projectName: string): TestCase[] {
  return run.root
    .allTests()
    .filter(
      (test) =>
        test.location.file === path.join(RECORDED_PROJECT, file) &&
        test.parent.project()?.name === projectName,
    );
}
