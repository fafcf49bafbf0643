import {
  guardEndHook,
  guardHook,
  type RunnerVerdict,
  RunReporter,
  startDir,
  type TestrunOptions,
  testsNotReported,
} from '@testrun/core';
import { listenForDisconnects } from './browser-disconnects.js';
import { browserLabels, mapTestDone } from './map-events.js';
import { recordOf } from './record-events.js';
import { testcafeVersion } from './running-testcafe.js';
import type {
  TestCafePluginHelpers,
  TestCafeReporterPlugin,
  TestCafeTaskProperties,
  TestCafeTestRunInfo,
} from './testcafe-types.js';

/** testrun's options (docs/options.md); every one can also come from the environment (`TESTRUN_*`). */
export type TestrunTestCafeOptions = TestrunOptions;

/**
 * A TestCafe reporter plugin factory with `options`: `runner.reporter(['spec', createReporter({ project: 'e2e' })])`.
 * The package's default export is the factory with options from the environment alone, which
 * TestCafe loads for `-r testrun` (installed as `testcafe-reporter-testrun`).
 */
export function createReporter(options: TestrunTestCafeOptions = {}): () => TestCafeReporterPlugin {
  return function testrun() {
    return testrunReporter(options);
  };
}

/**
 * One plugin per TestCafe task: one run. The run starts when TestCafe makes the plugin, before
 * it starts the browsers, so a task that ends before any test (a browser that did not start)
 * still leaves a failed result, spooled on the way out; each test's results go to the service
 * as it ends in every browser; TestCafe awaits reportTaskDone, where delivery ends. Nothing here
 * throws into TestCafe.
 */
export function testrunReporter(options: TestrunTestCafeOptions = {}): TestCafeReporterPlugin {
  let started = false;
  let labels = new Map<string, string>();
  /** The tests TestCafe counted at reportTaskStart, and those it reported done (each once, in every browser). */
  const tests = { counted: 0, reported: 0 };
  let stopsOnFirstFail = false;
  let disconnects: () => string[] = () => [];
  const run = guardHook(() => {
    const reporter = new RunReporter({
      options,
      framework: { name: 'testcafe', version: testcafeVersion() },
      rootDir: startDir,
      // TestCafe names its browsers at reportTaskStart, after it made the plugin (and the run started).
      projectCount: () => labels.size,
      flushOnExit: () => {
        if (!started) {
          reporter.addRunErrors([
            'TestCafe ended before it ran any test: a browser that did not start, or a test file that did not compile (its output says which)',
          ]);
        }
      },
    });
    return reporter;
  });
  guardHook(() => {
    if (run?.active) run.startRun();
  });
  return {
    async reportTaskStart(
      _startTime,
      _userAgents,
      testCount,
      _structure,
      properties?: TestCafeTaskProperties,
    ) {
      guardHook(() => {
        started = true;
        if (!run?.active) return;
        // Several browsers are projects: core labels results by the browser when there is more than one.
        labels = browserLabels(aliasesOf(properties));
        tests.counted = typeof testCount === 'number' ? testCount : 0;
        stopsOnFirstFail = properties?.configuration?.stopOnFirstFail === true;
        disconnects = listenForDisconnects();
      });
    },
    async reportFixtureStart() {},
    async reportTestDone(this: TestCafePluginHelpers, name: unknown, info: TestCafeTestRunInfo) {
      const format = this?.formatError?.bind(this);
      guardHook(() => {
        if (!run?.active) return;
        tests.reported += 1;
        for (const file of mapTestDone(recordOf(name, info, format), labels)) run.addFile(file);
      });
    },
    async reportTaskDone(_endTime, passed, _warnings, result) {
      if (!run?.active) return;
      await guardEndHook(async () => {
        await run.endRun([], verdictOf(tests, disconnects(), { stopsOnFirstFail, failed: failedIn(result) }));
        if (run.error && typeof passed === 'number') failTheExit();
      });
    },
  };
}

/**
 * TestCafe's verdict beside the tests it reported: a task that ended with tests it counted
 * never reported (a browser that disconnected for good, a tested app that died) failed, and
 * TestCafe counts those tests failed; the browser's error, when one was heard, says why. A
 * task stopped at its first failed test (`stopOnFirstFail`) is failed by that test already.
 * Otherwise TestCafe's exit code is its count of failed tests, each a failed result here: it
 * fails for them alone (quarantine, docs/design/quarantine.md), but where it stopped at the first.
 */
export function verdictOf(
  tests: { counted: number; reported: number },
  disconnects: string[],
  { stopsOnFirstFail, failed }: { stopsOnFirstFail: boolean; failed: boolean },
): RunnerVerdict {
  const alone: RunnerVerdict = stopsOnFirstFail
    ? {
        failedByTestsAlone: false,
        notTestsAlone: 'stopOnFirstFail stops TestCafe at a failure, before every test ran',
      }
    : { failedByTestsAlone: true };
  if (stopsOnFirstFail && failed) return alone;
  const why = testsNotReported('TestCafe', tests, disconnects.join('\n') || undefined);
  return why ? { why: [why], failedByTestsAlone: false } : alone;
}

/** Whether reportTaskDone's result (TestCafe 1.10+) counts a failed test. */
function failedIn(result: unknown): boolean {
  const failed = (result as { failedCount?: unknown } | undefined)?.failedCount;
  return typeof failed === 'number' && failed > 0;
}

/** The aliases of the task's browsers, in the configuration's order. */
function aliasesOf(properties: TestCafeTaskProperties | undefined): string[] {
  const browsers = properties?.configuration?.browsers;
  if (!Array.isArray(browsers)) return [];
  return browsers
    .map((browser) => (typeof browser === 'string' ? browser : (browser as { alias?: unknown })?.alias))
    .filter((alias): alias is string => typeof alias === 'string');
}

/**
 * TestCafe's exit code for a run that failed only in delivery: its command line exits with the
 * number of failed tests (`process.exit`), so the code is changed where Node reads it last, in
 * an `exit` listener, and only a passing run's.
 */
function failTheExit(): void {
  process.once('exit', (code) => {
    if (code === 0) process.exitCode = 1;
  });
}
