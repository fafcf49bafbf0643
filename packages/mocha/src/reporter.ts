import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  guardEndHook,
  guardHook,
  line,
  lineOnce,
  RunReporter,
  startDir,
  type TestrunOptions,
  unknownOptionMessage,
} from '@testrun/core';
import { type MochaRecord, mapRecords } from './map-records.js';
import {
  EVENTS,
  type MochaReporterClass,
  type MochaRunnable,
  type MochaRunner,
  type MochaSuite,
} from './mocha-types.js';
import { DEFAULT_WRAPPED_REPORTER, splitOptions } from './options.js';
import { grepOf, PREVENTED_EVENT, preventedBy, type WillRun } from './prevented-tests.js';
import { runningMocha } from './running-mocha.js';

/** testrun's options, plus `reporter`: the Mocha reporter whose console output is kept (default `spec`). */
export type TestrunMochaOptions = TestrunOptions & { reporter?: string };

/** The reporter Mocha's workers use in --parallel mode: Mocha's own, plus the tests a failed hook prevented. */
// A function, as only --parallel needs it: reading import.meta loads a module of Node's ES loader.
const workerReporter = () => fileURLToPath(new URL('./worker-reporter.cjs', import.meta.url));

/** What Mocha passes a reporter: its options, with ours under `reporterOption`. */
interface MochaOptions {
  reporterOption?: unknown;
  reporterOptions?: unknown;
  watch?: unknown;
  files?: unknown;
  /** `--bail`: Mocha stops at the first failure, leaving tests unrun. */
  bail?: unknown;
}

/**
 * Mocha reporter: keeps the console output of the reporter it wraps (`spec` by default),
 * streams each spec file's results to the service as the file ends, and delivers the rest
 * before Mocha exits (Mocha awaits `done`). It shares its process with the tests in serial
 * mode, so each event only keeps what it saw; the mapping is done between files. Nothing
 * here throws into Mocha.
 */
export class TestrunReporter {
  private readonly wrapped: { done?: (failures: number, fn: (failures: number) => void) => void } | undefined;
  private readonly run: RunReporter | undefined;
  private readonly records: MochaRecord[] = [];
  private specFiles: string[] = [];
  private parallel = false;
  private willRun: WillRun = () => true;
  /** Mocha stops at the first failure (--bail). */
  private readonly bails: boolean;
  /** Failures Mocha told its reporters of (its `fail` event), each a record and so a failed result. */
  private failEvents = 0;
  /** Every failure was a quarantined test's, and nothing else failed: `done` passes the run (docs/design/quarantine.md). */
  private quarantinePasses = false;

  /** Options given in code (createReporter); Mocha's own reporter options win over them. */
  static defaults: TestrunMochaOptions = {};

  constructor(runner: MochaRunner, options?: MochaOptions) {
    this.bails = options?.bail === true;
    const mocha = guardHook(() => runningMocha());
    const given = options?.reporterOption ?? options?.reporterOptions;
    const split = guardHook(() => splitOptions(new.target.defaults, given)) ?? {
      testrun: {},
      wrapped: DEFAULT_WRAPPED_REPORTER,
      misspelt: [],
    };
    if (split.misspelt.length > 0) guardHook(() => lineOnce(misspeltLine(split.misspelt, split.wrapped)));
    // The console output is the user's: it is kept whatever happens to reporting.
    this.wrapped = wrap(mocha?.loadReporter, split.wrapped, runner, options);
    this.run = guardHook(() => {
      const run = new RunReporter({
        options: split.testrun,
        framework: { name: 'mocha', version: mocha?.version ?? 'unknown' },
        rootDir: startDir,
        watchMode: Boolean(options?.watch),
        flushOnExit: () => this.flush(),
        // Mocha's exit code is what `done` hands its callback (below): a run whose failures
        // were quarantined tests' alone passes here, in the process.
        decidesVerdict: true,
      });
      if (run.active) run.startRun();
      return run;
    });
    if (!this.run?.active) return;
    guardHook(() => {
      this.specFiles = Array.isArray(options?.files)
        ? options.files.filter((f) => typeof f === 'string')
        : [];
      this.parallel = runner.isParallelMode?.() === true;
      // Where the worker reporter is missing (this package's sources, run unbuilt), Mocha's
      // own runs and a failed hook fails its file instead.
      if (this.parallel && fs.existsSync(workerReporter())) runner.workerReporter?.(workerReporter());
      else this.willRun = grepOf(runner);
      this.listen(runner);
    });
  }

  /**
   * Each handler keeps one record and returns: a test may have replaced what a handler would
   * call (Array.prototype.filter stubbed to return undefined, fake timers).
   */
  private listen(runner: MochaRunner): void {
    const keep = (record: MochaRecord) => {
      this.records[this.records.length] = record;
    };
    runner.on(EVENTS.pass, (test: MochaRunnable) => keep({ kind: 'ended', test, outcome: 'passed' }));
    runner.on(EVENTS.pending, (test: MochaRunnable) => keep({ kind: 'ended', test, outcome: 'pending' }));
    runner.on(EVENTS.fail, (runnable: MochaRunnable, error: unknown) => {
      this.failEvents += 1;
      try {
        if (runnable?.type === 'test') keep({ kind: 'ended', test: runnable, outcome: 'failed', error });
        else if (runnable?.type === 'hook') {
          // In parallel mode the worker names the prevented tests in an event of its own, next.
          const prevented = this.parallel ? [] : preventedBy(runnable, this.willRun);
          keep({ kind: 'hook', hook: runnable, error, prevented });
        } else keep({ kind: 'outside', error });
      } catch {
        keep({ kind: 'outside', error });
      }
    });
    runner.on(PREVENTED_EVENT, (data: { tests?: MochaRunnable[] }) => {
      const last = this.records[this.records.length - 1];
      if (last?.kind === 'hook' && Array.isArray(data?.tests)) last.prevented = data.tests;
    });
    // A file's end. Serially, files run one after another (every file's root-level tests
    // first, then every file's describe blocks): a file has ended when a test or block of
    // another file starts, before its hooks run and so before it can stub anything. In
    // parallel mode, when a worker's root suite ends (a worker runs one file).
    runner.on(EVENTS.testBegin, (test: MochaRunnable) => this.flushUnless(test?.file));
    runner.on(EVENTS.suiteBegin, (suite: MochaSuite) => {
      if (suite?.file) this.flushUnless(suite.file);
    });
    runner.on(EVENTS.suiteEnd, (suite: MochaSuite) => {
      if (suite?.root) this.flush();
    });
  }

  /** Flushes unless `file` is the one the last record belongs to: the same file goes on. */
  private flushUnless(file: string | undefined): void {
    const last = this.records[this.records.length - 1];
    if (last && fileOf(last) !== file) this.flush();
  }

  /** Hands core what the records say so far. */
  private flush(): void {
    guardHook(() => {
      if (!this.run?.active || this.records.length === 0) return;
      const records = this.records.splice(0);
      const { files, runErrors } = mapRecords(records, this.specFiles);
      for (const file of files) this.run.addFile(file);
      this.run.addRunErrors(runErrors);
    });
  }

  /**
   * Mocha awaits this before it sets the exit code (and before it exits, with --exit): the
   * code is what `fn` is given. It is Mocha's count of failures but where every failure was a
   * quarantined test's (0), or failOnError failed a passing run (1).
   */
  done(failures: number, fn: (failures: number) => void): void {
    let called = false;
    const finish = () => {
      if (called) return;
      called = true;
      process.off('beforeExit', finish);
      // Set only with failOnError; core has printed the reason.
      if (this.run?.error) fn(failures || 1);
      else fn(this.quarantinePasses ? 0 : failures);
    };
    // Should delivery stall with nothing left to run (a test's fakes), Mocha still gets its exit code.
    process.once('beforeExit', finish);
    const end = async () => {
      // A wrapped reporter that writes a file (xunit, json) finishes it in its own done.
      await new Promise<void>((resolve) => {
        const wrappedDone = this.wrapped?.done;
        if (!wrappedDone) return resolve();
        try {
          wrappedDone.call(this.wrapped, failures, () => resolve());
        } catch (error) {
          line(`the wrapped reporter failed at the end of the run: ${(error as Error).message}`);
          resolve();
        }
      });
      const run = this.run;
      if (!run) return;
      this.flush();
      await guardEndHook(async () => {
        // Mocha's verdict (its exit code is the count of failures) ends the run too: a failure
        // no result holds still fails it, with a result saying so (core, "The run's end").
        const summary = await run.endRun([], {
          failed: failures > 0,
          ...testsAlone({ bails: this.bails, failures, failEvents: this.failEvents }),
        });
        this.quarantinePasses = summary?.quarantine?.passes === true;
      });
    };
    end().then(finish, finish);
  }
}

/**
 * Whether Mocha failed the run for its failed tests alone (quarantine, docs/design/quarantine.md):
 * its exit code counts its failures, each a test's or a hook's that it told its reporters of
 * (a failed result here, an error outside the tests among them); but --bail stops it at the
 * first, leaving tests unrun, and a failure it counted but never told of is no result here.
 */
export function testsAlone({
  bails,
  failures,
  failEvents,
}: {
  bails: boolean;
  failures: number;
  failEvents: number;
}): { failedByTestsAlone: boolean; notTestsAlone?: string } {
  if (bails) {
    return {
      failedByTestsAlone: false,
      notTestsAlone: '--bail stops Mocha at a failure, before every test ran',
    };
  }
  if (failures > failEvents) {
    return {
      failedByTestsAlone: false,
      notTestsAlone: `Mocha counted ${failures} failures and told its reporters of ${failEvents}`,
    };
  }
  return { failedByTestsAlone: true };
}

/**
 * Names close to a testrun option get the hint Vitest's options get, all in one line. They
 * are no error here, as they are there: the wrapped reporter may own the name, so reporting
 * goes on with the options testrun knows.
 */
function misspeltLine(names: readonly string[], wrapped: string): string {
  const hints = names.map(unknownOptionMessage).join(' ');
  return `${hints} Reporting goes on without ${names.length === 1 ? 'it' : 'them'}: reporter options testrun does not know are the ${wrapped} reporter's.`;
}

function fileOf(record: MochaRecord): string | undefined {
  return record.kind === 'ended' ? record.test.file : record.kind === 'hook' ? record.hook.file : undefined;
}

/** The reporter whose output is kept, constructed on the same runner; spec if the named one cannot load. */
function wrap(
  load: ((name: string) => MochaReporterClass) | undefined,
  name: string,
  runner: MochaRunner,
  options: unknown,
): InstanceType<MochaReporterClass> | undefined {
  if (!load) return undefined;
  try {
    return new (load(name))(runner, options);
  } catch (error) {
    line(
      `the reporter option names ${JSON.stringify(name)}, which Mocha cannot load (${(error as Error).message}); its output is Mocha's spec reporter's instead.`,
    );
    return guardHook(() => new (load(DEFAULT_WRAPPED_REPORTER))(runner, options));
  }
}

/**
 * A reporter class with options given in code, for what Mocha's string options cannot
 * carry (`mapResult`): export it from a module of your own and name that module as the
 * reporter (`module.exports = createReporter({ mapResult })`).
 */
export function createReporter(options: TestrunMochaOptions): typeof TestrunReporter {
  return class extends TestrunReporter {
    static override defaults = options;
  };
}
