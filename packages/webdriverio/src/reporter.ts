import { guardEndHook, guardHook, RunReporter, startDir, type TestrunOptions } from '@testrun/core';
import { capabilityIndex, labelsFromEnv } from './capabilities.js';
import { receiveCucumberScenarios } from './cucumber-formatter.js';
import { CUCUMBER_EVENTS, WdioMapping, willBeRetried } from './map-events.js';
import { webdriverioVersion } from './running-webdriverio.js';
import type { WdioEvent, WdioRunnerEnd, WdioRunnerStart } from './wdio-events.js';
import { markWorker } from './worker-marks.js';

/** testrun's options (docs/options.md); every one can also come from the environment (`TESTRUN_*`). */
export type TestrunWebdriverioOptions = TestrunOptions;

/** What WebdriverIO adds to every reporter's options: not ours to check. */
const WDIO_OWN_OPTIONS = ['logFile', 'setLogFile', 'writeStream', 'outputDir', 'stdout'];

/** testrun's options among what WebdriverIO hands the reporter. */
export function testrunOptions(given: unknown): Record<string, unknown> {
  const options: Record<string, unknown> = { ...(given && typeof given === 'object' ? given : {}) };
  for (const name of WDIO_OWN_OPTIONS) delete options[name];
  return options;
}

/**
 * A WebdriverIO reporter: `reporters: [['@testrun/webdriverio', { project: 'e2e' }]]`.
 * WebdriverIO makes one in each worker (one per spec file and capability) and hands it every
 * event with `emit`; it keeps each in one slot, hands core a spec file's tests when a
 * top-level suite ends, and ends delivery at `runner:end`, while WebdriverIO waits for
 * `isSynchronised` before the worker exits. The launcher service (`./service`) makes all
 * workers of one `wdio run` report into one run. Nothing here throws into WebdriverIO.
 */
export class TestrunWebdriverioReporter {
  private readonly run: RunReporter | undefined;
  private readonly events: WdioEvent[] = [];
  private readonly mapping = new WdioMapping();
  private readonly project: { name: string } | undefined;
  /** A worker whose spec files WebdriverIO may run again holds its results until it knows. */
  private specFileRetries = 0;
  private synchronised = true;
  /** Under Cucumber, what the formatter still holds (a scenario awaiting the run's verdict), for a worker on its way out. */
  private flushCucumber: (() => void) | undefined;

  constructor(options: TestrunWebdriverioOptions = {}) {
    const labels = labelsFromEnv(process.env);
    const label = labels[capabilityIndex(process.env.WDIO_WORKER_ID)];
    this.project = label ? { name: label } : undefined;
    this.run = guardHook(
      () =>
        new RunReporter({
          options: testrunOptions(options),
          framework: { name: 'webdriverio', version: webdriverioVersion() },
          rootDir: startDir,
          projectCount: labels.length || undefined,
          // The launcher hands every worker one key: the others' create-runs find the first's run.
          sharesRunKey: true,
          flushOnExit: () => {
            this.flushCucumber?.();
            this.flush();
          },
        }),
    );
    // Under Cucumber, the worker service's formatter hands this reporter Cucumber's own scenarios,
    // as events of their own: they wait, and are handed on, with WebdriverIO's.
    if (this.run?.active) {
      receiveCucumberScenarios({
        started: (flush) => {
          this.flushCucumber = flush;
          this.emit(CUCUMBER_EVENTS.started, {});
        },
        file: (report) => this.emit(CUCUMBER_EVENTS.file, report),
        runError: (message) => this.emit(CUCUMBER_EVENTS.runError, message),
      });
    }
  }

  /** WebdriverIO waits for this before the worker exits (reporterSyncTimeout, 5 s by default). */
  get isSynchronised(): boolean {
    return this.synchronised;
  }

  /** Every event of the worker: one slot each, the work done between top-level suites. */
  emit(name: string, payload: unknown): boolean {
    // Also when reporting is off: the launcher service then has nothing to say for this worker
    // either. A worker that ends without its end mark died mid-run (worker-marks.ts).
    if (name === 'runner:start') guardHook(() => markWorker());
    if (name === 'runner:end') guardHook(() => markWorker(failuresOf(payload)));
    if (!this.run?.active) return true;
    this.events[this.events.length] = { name, payload } as WdioEvent;
    guardHook(() => {
      if (name === 'runner:start') {
        const retries = (payload as WdioRunnerStart)?.config?.specFileRetries;
        this.specFileRetries = typeof retries === 'number' && retries > 0 ? retries : 0;
        // From now on a worker that is ended (a cancelled job's signal, a crash) spools what it
        // holds. One that may be retried starts its run only when it knows it reports.
        if (this.specFileRetries === 0) this.run?.startRun();
      } else if (
        name === 'suite:end' &&
        this.specFileRetries === 0 &&
        !(payload as { parent?: string })?.parent
      ) {
        this.flush();
      } else if (name === 'runner:end') {
        this.end(payload as WdioRunnerEnd);
      }
    });
    return true;
  }

  private end(runnerEnd: WdioRunnerEnd): void {
    const run = this.run;
    if (!run) return;
    // An attempt WebdriverIO runs again is not reported: the next attempt's results are the file's.
    if (this.specFileRetries > 0 && willBeRetried(runnerEnd ?? {}, this.specFileRetries)) {
      this.events.splice(0);
      return;
    }
    this.flush(true);
    this.synchronised = false;
    void guardEndHook(async () => {
      try {
        // WebdriverIO's exit code holds more than its workers' failed tests: its launcher's
        // hooks and services (onPrepare, onComplete), which no reporter sees. So quarantine
        // never passes its build (docs/quarantine.md): this says why, in testrun run's line.
        await run.endRun([], {
          failedByTestsAlone: false,
          notTestsAlone:
            "WebdriverIO's exit code also holds its launcher's hooks and services (onPrepare, onComplete), which no reporter sees",
        });
      } finally {
        this.synchronised = true;
      }
    });
  }

  /** Hands core what the events say so far; at the end, the files that failed outside their tests too. */
  private flush(end = false): void {
    guardHook(() => {
      if (!this.run?.active) return;
      const files = this.mapping.take(this.events.splice(0), end);
      for (const file of files) this.run.addFile({ ...file, project: this.project });
      this.run.addRunErrors(this.mapping.takeRunErrors());
    });
  }
}
export default TestrunWebdriverioReporter;

/** runner:end's count of the worker's failures, 0 when it gives none. */
function failuresOf(payload: unknown): number {
  const failures = (payload as WdioRunnerEnd | undefined)?.failures;
  return typeof failures === 'number' && failures > 0 ? failures : 0;
}
