import type {
  AggregatedResult,
  Config,
  Reporter,
  Test,
  TestCaseResult,
  TestContext,
  TestResult,
} from '@jest/reporters';
import {
  countOf,
  guardEndHook,
  guardHook,
  lineOnce,
  RunReporter,
  startDir,
  type TestrunOptions,
} from '@testrun/core';
import { isOlderThanSupported, jestVersion, SUPPORTED_JEST_RANGE } from './jest-version.js';
import { mapTestFile, mapUnfinishedFile } from './map-test-file.js';
import { configuredProjectCount } from './project-count.js';

export type TestrunJestOptions = TestrunOptions;

/**
 * Jest reporter: streams each test file's results to the service as the file ends.
 * Every hook catches its own errors: a reporting problem must never fail a test run.
 */
export class TestrunReporter implements Reporter {
  private readonly rootDir: string;
  private readonly run: RunReporter | undefined;
  /** Tests that ended in files still running: what a cancelled process hands over (flushOnExit). */
  private readonly unfinished = new Map<string, { test: Test; assertions: TestCaseResult[] }>();
  /**
   * Each running file's Test as Jest starts it. The Test that comes with onTestCaseResult
   * carries the config of whichever project made Jest's shared test runner (@jest/core 29
   * and 30), so with several projects only this one names the file's project.
   */
  private readonly started = new Map<string, Test>();
  private readonly globalConfig: Config.GlobalConfig | undefined;

  constructor(globalConfig: Config.GlobalConfig, options?: TestrunJestOptions) {
    this.globalConfig = globalConfig;
    this.rootDir = globalConfig?.rootDir ?? startDir;
    this.run = guardHook(() => {
      const { watch, watchAll, shard } = globalConfig;
      // In watch mode Jest builds its reporters anew for every rerun: core says its lines once.
      const watchMode = Boolean(watch || watchAll);
      const version = jestVersion(this.rootDir);
      if (isOlderThanSupported(version)) {
        lineOnce(
          `reporting is off: Jest ${version} is not supported; @testrun/jest needs jest ${SUPPORTED_JEST_RANGE}. The tests run as usual.`,
        );
        return undefined;
      }
      return new RunReporter({
        options,
        framework: { name: 'jest', version },
        rootDir: this.rootDir,
        projectCount: configuredProjectCount(globalConfig),
        watchMode,
        shard: shard ? { index: shard.shardIndex, count: shard.shardCount } : undefined,
        flushOnExit: () => this.reportUnfinishedFiles(),
      });
    });
  }

  onRunStart(): void {
    guardHook(() => {
      if (!this.run?.active) return;
      this.run.startRun();
    });
  }

  onTestFileStart(test: Test): void {
    guardHook(() => {
      if (this.run?.active) this.started.set(test.path, test);
    });
  }

  /** Only kept (a push), not mapped: the work is done when the file ends, or if the process is cancelled first. */
  onTestCaseResult(test: Test, testCaseResult: TestCaseResult): void {
    guardHook(() => {
      if (!this.run?.active) return;
      const file = this.unfinished.get(test.path);
      if (file) file.assertions.push(testCaseResult);
      else
        this.unfinished.set(test.path, {
          test: this.started.get(test.path) ?? test,
          assertions: [testCaseResult],
        });
    });
  }

  onTestFileResult(test: Test, testResult: TestResult): void {
    this.unfinished.delete(testResult.testFilePath);
    this.started.delete(testResult.testFilePath);
    guardHook(() => {
      if (!this.run?.active) return;
      this.run.addFile(mapTestFile(test, testResult));
    });
  }

  /** The process is going away mid-run (a cancelled job): the tests that ended in files still running are kept too. */
  private reportUnfinishedFiles(): void {
    for (const { test, assertions } of this.unfinished.values()) {
      guardHook(() => this.run?.addFile(mapUnfinishedFile(test, assertions)));
    }
    this.unfinished.clear();
  }

  /** Jest awaits this before it exits, so delivery finishes here. */
  async onRunComplete(_contexts?: Set<TestContext>, results?: AggregatedResult): Promise<void> {
    const run = this.run;
    if (!run) return;
    await guardEndHook(async () => {
      // The test runner itself failed (a custom runner that throws, say): no file names it.
      const runExecError = results?.runExecError;
      if (runExecError) guardHook(() => run.addRunErrors([runExecError.message]));
      // Jest fails the run on getLastError() but prints nothing about it: core prints the reason.
      // Jest's own verdict ends the run too: failed where no result says so (a snapshot that
      // failed the run, an obsolete one under --ci), interrupted where Jest was (a signal).
      // Not `success`: Jest settles it only after its reporters' onRunComplete.
      await run.endRun([], {
        failed: results?.snapshot?.failure === true,
        interrupted: results?.wasInterrupted === true,
        why: snapshotsFailed(results),
        ...testsAlone(this.globalConfig, results),
      });
    });
  }

  /** Jest fails the run with this error; core sets one only when failOnError is on. */
  getLastError(): Error | undefined {
    return this.run?.error;
  }
}

/**
 * Whether Jest fails a run for its failed tests alone (quarantine, docs/design/quarantine.md): Jest's
 * `success` is no failed test, no file that failed to run (results both), no snapshot failure
 * and no reporter error, a coverage threshold's among them; and `bail` stops the run at a
 * failure, leaving files unrun. Where any of those may be, its verdict stands.
 */
export function testsAlone(
  globalConfig: Pick<Config.GlobalConfig, 'bail' | 'collectCoverage' | 'coverageThreshold'> | undefined,
  results: Pick<AggregatedResult, 'snapshot' | 'wasInterrupted'> | undefined,
): { failedByTestsAlone: boolean; notTestsAlone?: string } {
  const doubt = (why: string) => ({ failedByTestsAlone: false, notTestsAlone: why });
  if (!globalConfig || !results) return { failedByTestsAlone: false };
  if (results.snapshot?.failure) return doubt('Jest failed the run on its snapshots');
  if ((globalConfig.bail ?? 0) > 0) return doubt('bail stops Jest at a failure, before every file ran');
  const thresholds = Object.keys(globalConfig.coverageThreshold ?? {});
  if (globalConfig.collectCoverage && thresholds.length > 0) {
    return doubt('coverage thresholds are set, which Jest checks after its reporters');
  }
  return { failedByTestsAlone: !results.wasInterrupted };
}

/**
 * Why Jest failed the run on its snapshots where no test failed (obsolete snapshots, or snapshot
 * files whose test files are gone, under `--ci`): its summary's counts, after a first line that
 * stays the same from run to run.
 */
function snapshotsFailed(results: AggregatedResult | undefined): string[] | undefined {
  const snapshot = results?.snapshot;
  if (snapshot?.failure !== true || (results?.numFailedTests ?? 0) > 0) return undefined;
  const counts = [
    counted(snapshot.unchecked, 'obsolete snapshot'),
    counted(snapshot.filesRemoved, 'obsolete snapshot file'),
    counted(snapshot.unmatched, 'failed snapshot'),
  ].filter(Boolean);
  return [`Jest failed the run on its snapshots\n${counts.join(', ') || 'its summary gave no count'}`];
}

function counted(count: unknown, what: string): string {
  return typeof count === 'number' && count > 0 ? countOf(count, what) : '';
}
