import { guardEndHook, guardHook, RunReporter, startDir, type TestrunOptions } from '@testrun/core';
import { mapOutermostTest, type TestEvent } from './map-events.js';
import { runArgs } from './run-args.js';

export type TestrunNodeTestOptions = TestrunOptions;

/** A node:test reporter: reads the run's events, writes nothing to its destination. */
export type NodeTestReporter = (source: AsyncIterable<unknown>) => AsyncGenerator<string, void>;

/**
 * A reporter for `node --test` that streams each outermost test's results to the service
 * as it ends and delivers the rest before the process exits. `--test-reporter=@testrun/node-test`
 * is this with the options from the environment; a module of your own that exports
 * `createReporter({ … })` as its default takes options in code (`mapResult`, say).
 *
 * It runs in the process `node --test` started, while the tests run in processes of their
 * own: each event is only kept, and the work is done when an outermost test (a top-level
 * `describe` or test) ends. Nothing here throws into the test runner.
 */
export function createReporter(options?: TestrunNodeTestOptions): NodeTestReporter {
  return async function* testrunReporter(source) {
    const cwd = startDir;
    let unit: TestEvent[] = [];
    const flush = () =>
      guardHook(() => {
        if (unit.length === 0) return;
        const events = unit;
        unit = [];
        const report = mapOutermostTest(events, cwd);
        if (report) run?.addFile(report);
      });
    const run = guardHook(() => {
      const { shard, watch } = runArgs(process.execArgv);
      const reporter = new RunReporter({
        options,
        framework: { name: 'node-test', version: process.versions.node },
        rootDir: cwd,
        watchMode: watch,
        shard,
        // A cancelled run: the tests of the outermost test still running that have ended.
        flushOnExit: flush,
      });
      if (reporter.active) reporter.startRun();
      return reporter;
    });
    const end = () =>
      guardEndHook(async () => {
        flush();
        if (!run) return;
        await run.endRun();
        // Set only with failOnError; core has printed the reason.
        if (run.error) process.exitCode = 1;
      });
    try {
      for await (const event of source) {
        if (!run?.active) continue;
        const { type, data } = event as TestEvent;
        // --watch with the watch option: each rerun is a run, ended when node:test has run
        // what changed; the next event starts the next one.
        if (type === 'test:watch:drained') {
          await end();
          continue;
        }
        guardHook(() => {
          if (type !== 'test:start' && type !== 'test:pass' && type !== 'test:fail') return;
          run.startRun();
          unit[unit.length] = event as TestEvent;
          if (type !== 'test:start' && data?.nesting === 0) flush();
        });
      }
    } finally {
      await end();
    }
  };
}
