import {
  guardEndHook,
  guardHook,
  type RunnerVerdict,
  RunReporter,
  startDir,
  type TestrunOptions,
} from '@testrun/core';
import type { JasmineDoneInfo, JasmineReporter, JasmineResult } from './jasmine-types.js';
import { type JasmineEvent, JasmineMapping } from './map-events.js';
import { jasmineVersion } from './running-jasmine.js';

/** How many reporters this process made: `register` adds none beside one a config file made. */
let made = 0;

/**
 * Set in the environment of the process that made a reporter: --parallel's workers, forked
 * after the config file loaded, inherit it, and `register` there knows the run is reported.
 */
export const MAIN_REPORTER_VAR = 'TESTRUN_JASMINE_MAIN_REPORTER';

/** Whether a TestrunJasmineReporter was made in this process already. */
export function reporterMade(): boolean {
  return made > 0;
}

/** testrun's options (docs/options.md); every one can also come from the environment (`TESTRUN_*`). */
export type TestrunJasmineOptions = TestrunOptions;

/**
 * A Jasmine reporter: add it with `jasmine.getEnv().addReporter(new TestrunJasmineReporter())`
 * (what `@testrun/jasmine/register` does), or in a JavaScript config file's `reporters`, the
 * way for `--parallel`, where it runs in the main process and gets every worker's events.
 * Results go to the service each time a top-level block ends, the rest in jasmineDone, which
 * Jasmine awaits before it exits. Jasmine's console reporter stays. It shares its process
 * with the specs in serial mode, so each event only keeps what it saw; the mapping is done
 * between top-level blocks. Nothing here throws into Jasmine.
 */
export class TestrunJasmineReporter implements JasmineReporter {
  /** Jasmine's --parallel mode takes reporters that say they can be fed from its workers. */
  readonly reporterCapabilities = { parallel: true };
  private readonly run: RunReporter | undefined;
  private readonly events: JasmineEvent[] = [];
  private readonly mapping = new JasmineMapping();

  constructor(options: TestrunJasmineOptions = {}) {
    made += 1;
    guardHook(() => {
      process.env[MAIN_REPORTER_VAR] = '1';
    });
    this.run = guardHook(
      () =>
        new RunReporter({
          options,
          framework: { name: 'jasmine', version: jasmineVersion() },
          rootDir: startDir,
          flushOnExit: () => this.flush(true),
        }),
    );
  }

  jasmineStarted(): void {
    guardHook(() => {
      if (this.run?.active) this.run.startRun();
    });
  }

  suiteStarted(result: JasmineResult): void {
    this.keep({ name: 'suiteStarted', result });
  }

  specDone(result: JasmineResult): void {
    this.keep({ name: 'specDone', result });
    if (result?.parentSuiteId == null) this.flush();
  }

  suiteDone(result: JasmineResult): void {
    this.keep({ name: 'suiteDone', result });
    // A top-level block has ended: the next one's hooks have not run yet.
    if (result?.parentSuiteId == null) this.flush();
  }

  /**
   * Jasmine awaits this before it exits with its exit code. With failOnError, results that
   * could not be delivered turn a passing run into a failed one (Jasmine's exit code 3).
   */
  async jasmineDone(info: JasmineDoneInfo): Promise<void> {
    const run = this.run;
    if (!run?.active) return;
    this.keep({ name: 'jasmineDone', info });
    this.flush(true);
    await guardEndHook(async () => {
      // Jasmine's verdict ends the run too: an afterAll that failed at the top fails it, and a
      // run it calls incomplete (a focused spec, no specs) fails, its exit code 2, saying why.
      // Jasmine fails a run for its failed specs and suites, each a failed result here; an
      // incomplete run and stopOnSpecFailure, which leaves specs unrun, fail it for more
      // (quarantine, docs/design/quarantine.md).
      await run.endRun([], { ...verdictOf(info), ...testsAlone(info) });
      if (run.error && info?.overallStatus === 'passed') failTheExit();
    });
  }

  /** One slot: a test may have replaced what more work would call (Array.prototype.push, fake timers). */
  private keep(event: JasmineEvent): void {
    if (this.run?.active) this.events[this.events.length] = event;
  }

  /** Hands core what the events say so far; at the end, the files that failed outside their specs too. */
  private flush(end = false): void {
    guardHook(() => {
      if (!this.run?.active || (this.events.length === 0 && !end)) return;
      const { files, runErrors } = this.mapping.take(this.events.splice(0), end);
      for (const file of files) this.run.addFile(file);
      this.run.addRunErrors(runErrors);
    });
  }
}

/** Jasmine's verdict on the run (RunnerBase.exitCodeForStatus: 0 only for `passed`). */
function verdictOf(info: JasmineDoneInfo | undefined): RunnerVerdict {
  if (info?.overallStatus === 'incomplete') {
    return { why: [`Jasmine ended the run incomplete: ${info.incompleteReason || 'it gave no reason'}`] };
  }
  return { failed: info?.overallStatus === 'failed' };
}

/**
 * Jasmine's exit code for a failed run, set on the way out: Jasmine hands reporters a copy of
 * its result and then calls process.exit() with the code it decided, so the code is changed
 * where Node reads it last, in an `exit` listener. Only a passing run's code changes.
 */
function failTheExit(): void {
  process.once('exit', (code) => {
    if (code === 0) process.exitCode = 3;
  });
}

/** Whether Jasmine failed the run for its failed specs alone, as far as the reporter sees. */
function testsAlone(info: JasmineDoneInfo | undefined): {
  failedByTestsAlone: boolean;
  notTestsAlone?: string;
} {
  if (info?.overallStatus === 'incomplete') {
    return { failedByTestsAlone: false, notTestsAlone: 'Jasmine calls the run incomplete' };
  }
  const env = (
    globalThis as { jasmine?: { getEnv?: () => { configuration?: () => { stopOnSpecFailure?: boolean } } } }
  ).jasmine;
  let stops = false;
  try {
    stops = env?.getEnv?.().configuration?.().stopOnSpecFailure === true;
  } catch {
    stops = true;
  }
  return stops
    ? {
        failedByTestsAlone: false,
        notTestsAlone: 'stopOnSpecFailure stops Jasmine at a failure, before every spec ran',
      }
    : { failedByTestsAlone: info !== undefined };
}
