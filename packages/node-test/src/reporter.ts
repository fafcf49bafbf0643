import { Transform } from 'node:stream';
import { guardEndHook, guardHook, RunReporter, startDir, type TestrunOptions } from '@testrun/core';
import { FileStderr, mapOutermostTest, type TestEvent } from './map-events.js';
import { runArgs } from './run-args.js';

export type TestrunNodeTestOptions = TestrunOptions;

/** A node:test reporter: a stream of the run's events in, nothing out to its destination. */
export type NodeTestReporter = Transform;

/**
 * A reporter for `node --test` that streams each outermost test's results to the service
 * as it ends and delivers the rest before the process exits. `--test-reporter=@testrun/node-test`
 * is this with the options from the environment; a module of your own that exports
 * `createReporter({ … })` as its default takes options in code (`mapResult`, say).
 *
 * It runs in the process `node --test` started, while the tests run in processes of their
 * own (or in it, with isolation none): each event is only kept, and the work is done when an
 * outermost test (a top-level `describe` or test) ends. Nothing here throws into the test
 * runner. It is a Transform, as Node's own reporters are, not an async generator: events
 * reach a Transform as node:test writes them, while `for await` waits for each through
 * `process.nextTick`, which a test in the same process may have faked and never restored
 * (docs/design/what-tests-do-to-the-process.md), and so began only after tests of an
 * isolation-none run had already changed the process.
 */
export function createReporter(options?: TestrunNodeTestOptions): NodeTestReporter {
  const cwd = startDir;
  // Read now, at import: node:test may hand over the first event only after an
  // isolation-none run's first tests have emptied process.env or set HTTP_PROXY.
  const env = { ...process.env };
  let unit: TestEvent[] = [];
  // What each file's process printed to stderr since its last outermost test ended: why a file
  // that did not load failed (node:test's own report of it says only "test failed").
  const stderr = new FileStderr();
  // node:test's own count of what failed, from the summary it writes last (its `fail N` and
  // `cancelled N` diagnostics): its exit code's verdict, which ends the run too.
  const counted = new Map<string, number>();
  const flush = () =>
    guardHook(() => {
      if (unit.length === 0) return;
      const events = unit;
      unit = [];
      const report = mapOutermostTest(events, cwd, (file) => stderr.of(file));
      if (report) {
        stderr.forget(report.file);
        run?.addFile(report);
      }
    });
  // Made at the first event, which node:test writes as the first test starts, before its body
  // runs: importing the package (for createReporter) starts no run of its own.
  let run: RunReporter | undefined;
  const start = () =>
    guardHook(() => {
      const { shard, watch } = runArgs(process.execArgv);
      const reporter = new RunReporter({
        options,
        env,
        framework: { name: 'node-test', version: process.versions.node },
        rootDir: cwd,
        watchMode: watch,
        shard,
        // A cancelled run: the tests of the outermost test still running that have ended.
        flushOnExit: flush,
      });
      if (reporter.active) {
        reporter.startRun();
        // With the tests in this process (isolation none) faking process.nextTick, node:test's
        // end never reaches the reporter and the process runs out of work: deliver then.
        process.once('beforeExit', () => void end());
      }
      return reporter;
    });
  const end = () =>
    guardEndHook(async () => {
      flush();
      if (!run) return;
      const failed = (counted.get('fail') ?? 0) + (counted.get('cancelled') ?? 0) > 0;
      counted.clear();
      // node:test fails a run for its failed tests, each a result here (a file that did not
      // load, a test that failed), and for a coverage threshold (--test-coverage-lines and
      // kin), which it checks after its reporters: with one set, its verdict stands (quarantine,
      // docs/design/quarantine.md).
      await run.endRun([], { failed, ...testsAlone(process.execArgv) });
      // Set only with failOnError; core has printed the reason.
      if (run.error) process.exitCode = 1;
    });
  /** Calls `done` once `work` settled: node:test waits for it before it writes the next event. */
  const after = (work: Promise<unknown>, done: () => void) => {
    work.then(done, done);
  };
  return new Transform({
    writableObjectMode: true,
    transform(event: TestEvent, _encoding, done) {
      run ??= start();
      const reporter = run;
      if (!reporter?.active) return done();
      const { type, data } = event;
      // --watch with the watch option: each rerun is a run, ended when node:test has run
      // what changed; the next event starts the next one.
      if (type === 'test:watch:drained') return after(end(), done);
      guardHook(() => {
        if (type === 'test:stderr') return stderr.keep(data?.file, data?.message);
        if (type === 'test:diagnostic') return countFrom(counted, data);
        if (type !== 'test:start' && type !== 'test:pass' && type !== 'test:fail') return;
        reporter.startRun();
        unit[unit.length] = event;
        if (type !== 'test:start' && data?.nesting === 0) flush();
      });
      done();
    },
    flush(done) {
      after(end(), () => done());
    },
  });
}

/** Whether node:test fails the run for its failed tests alone, by the flags it runs with. */
export function testsAlone(execArgv: readonly string[]): {
  failedByTestsAlone: boolean;
  notTestsAlone?: string;
} {
  const thresholds = execArgv.some((arg) => /^--test-coverage-(lines|branches|functions)(=|$)/.test(arg));
  return thresholds
    ? {
        failedByTestsAlone: false,
        notTestsAlone: 'coverage thresholds are set, which node:test checks after its reporters',
      }
    : { failedByTestsAlone: true };
}

/** Keeps a count of node:test's summary (`fail 1`, `cancelled 0`: top-level diagnostics), the last one written. */
function countFrom(counted: Map<string, number>, data: TestEvent['data']): void {
  const message = (data as { message?: unknown } | undefined)?.message;
  if (data?.nesting !== 0 || typeof message !== 'string') return;
  const [, name, count] = /^(fail|cancelled) (\d+)$/.exec(message) ?? [];
  if (name) counted.set(name, Number(count));
}
