import { fileURLToPath } from 'node:url';
import type { CanonicalStatus, FileReport, RawAttachment, RawTest } from '@testrun/core';
import type {
  WdioCommandResult,
  WdioEvent,
  WdioRunnable,
  WdioRunnerEnd,
  WdioRunnerStart,
} from './wdio-events.js';

// What the reporter keeps while a worker's specs run, and how it becomes FileReports between
// them. Keeping is one array slot per event (the tests share the worker's process); the
// mapping runs when a top-level suite or the worker's run has ended.

/** One test, as the last of its attempts ended. */
interface Outcome extends RawTest {
  file: string;
}

/** A Cucumber scenario while its steps run: its steps are WebdriverIO's tests, the scenario is the result. */
interface Scenario {
  key: string;
  titles: string[];
  file: string;
  statuses: CanonicalStatus[];
  duration: number;
  /** What its failed steps and hooks threw. */
  errors: unknown[];
  /** Screenshots its steps took. */
  attachments: RawAttachment[];
}

/**
 * The events the worker's Cucumber formatter adds (cucumber-formatter.ts): it is in place, a
 * feature file's scenario as Cucumber's messages say it, an error outside every scenario.
 */
export const CUCUMBER_EVENTS = {
  started: 'testrun:cucumber-started',
  file: 'testrun:cucumber-file',
  runError: 'testrun:cucumber-run-error',
} as const;

/**
 * Turns a worker's events into FileReports, a batch at a time. Titles are the open suites'
 * titles, outermost first, then the test's: Mocha's and Jasmine's `describe`s, Cucumber's
 * feature (and rule). Under Cucumber, with the worker service's formatter in place, the
 * scenarios are what Cucumber's own messages say (CUCUMBER_EVENTS), as @testrun/cucumber maps
 * them, and WebdriverIO's events of them are not read; without it (no service), a step is a
 * test to WebdriverIO and the scenario (a suite of type `scenario`) is the result, with the
 * worst of its steps' statuses, named by its name alone. A test
 * retried in the worker (Mocha's `this.retries`, Cucumber's retry) ends once, as its last
 * attempt did: the outcomes are keyed by WebdriverIO's uid, which an attempt keeps. A hook
 * that failed, a spec file with no test that failed although the worker counted failures (a
 * file that did not load), and a session that did not start fail their files: core then adds
 * `(file failed to run)` unless a test of the file failed, as for every adapter.
 */
export class WdioMapping {
  private readonly open: WdioRunnable[] = [];
  private specs: string[] = [];
  private readonly outcomes = new Map<string, Outcome>();
  private scenario: Scenario | undefined;
  /** Spec files that failed outside their tests, with what failed them. */
  private readonly failedFiles = new Map<string, unknown[]>();
  /** Per test attempt (its uid), the Mocha retry it is, as test:start said. */
  private readonly retryOf = new Map<string, number>();
  /** Whether any test or hook of this worker failed: failures beyond them fail the spec files. */
  private sawFailure = false;
  /** Cucumber's messages give the scenarios (CUCUMBER_EVENTS): WebdriverIO's events of them are not read. */
  private fromMessages = false;
  /** Scenarios from Cucumber's messages, as feature files' reports, and errors outside every scenario. */
  private readonly messageFiles: FileReport[] = [];
  private readonly runErrors: string[] = [];
  /** The test that started last (its key), whose screenshots the commands take; and what they took before it ended. */
  private currentTest: string | undefined;
  private readonly shots = new Map<string, RawAttachment[]>();

  /** The batch's tests per file; with `end`, also the files that failed outside their tests. */
  take(events: readonly WdioEvent[], end = false): FileReport[] {
    for (const event of events) this.read(event);
    const byFile = new Map<string, RawTest[]>();
    for (const { file, ...test } of this.outcomes.values()) {
      const list = byFile.get(file) ?? [];
      list.push(test);
      byFile.set(file, list);
    }
    this.outcomes.clear();
    const files: FileReport[] = [...byFile].map(([file, tests]) => ({ file, tests }));
    files.push(...this.messageFiles.splice(0));
    if (end) {
      for (const [file, errors] of this.failedFiles) {
        files.push({ file, tests: [], failedOutsideTests: true, failure: { errors } });
      }
      this.failedFiles.clear();
    }
    return files;
  }

  /** Errors outside every scenario (Cucumber's BeforeAll and AfterAll) since the last call. */
  takeRunErrors(): string[] {
    return this.runErrors.splice(0);
  }

  private read({ name, payload }: WdioEvent): void {
    if (!payload) return;
    if (this.readMessage(name, payload)) return;
    switch (name) {
      case 'runner:start':
        this.specs = ((payload as WdioRunnerStart).specs ?? []).map(pathOf);
        return;
      case 'runner:end':
        this.runnerEnded(payload as WdioRunnerEnd);
        return;
      case 'suite:start': {
        const suite = payload as WdioRunnable;
        if (suite.type === 'scenario' && !this.fromMessages) {
          this.scenario = {
            key: suite.uid ?? this.titles(suite.title).join('\n'),
            titles: this.titles(suite.title),
            file: this.fileOf(suite),
            statuses: [],
            duration: 0,
            errors: [],
            attachments: [],
          };
        }
        this.open.push(suite);
        return;
      }
      case 'suite:end': {
        const suite = this.open.pop();
        if (suite?.type === 'scenario' && this.scenario) this.scenarioEnded(this.scenario);
        return;
      }
      case 'hook:end': {
        const hook = payload as WdioRunnable;
        if (!hook.error && !hook.errors?.length) return;
        this.sawFailure = true;
        if (this.scenario) {
          this.scenario.statuses.push('failed');
          this.scenario.errors.push(...errorsOf(hook));
        } else this.fileFailed(this.fileOf(hook), errorsOf(hook));
        return;
      }
      case 'test:start': {
        const test = payload as WdioRunnable;
        if (typeof test.retries === 'number' && test.retries > 0)
          this.retryOf.set(this.keyOf(test), test.retries);
        this.currentTest = this.keyOf(test);
        return;
      }
      case 'client:afterCommand':
        this.screenshotTaken(payload as WdioCommandResult);
        return;
      case 'test:pass':
      case 'test:fail':
      case 'test:skip':
      case 'test:pending':
        this.testEnded(payload as WdioRunnable, statusOf(name));
        return;
    }
  }

  /** An event of Cucumber's messages, or one of WebdriverIO's that they replace: true when it was read here. */
  private readMessage(name: string, payload: unknown): boolean {
    switch (name) {
      case CUCUMBER_EVENTS.started:
        this.fromMessages = true;
        return true;
      case CUCUMBER_EVENTS.file: {
        const report = payload as FileReport;
        this.messageFiles.push(report);
        if (report.failedOutsideTests || report.tests.some((test) => test.status === 'failed')) {
          this.sawFailure = true;
        }
        return true;
      }
      case CUCUMBER_EVENTS.runError:
        this.runErrors.push(String(payload));
        this.sawFailure = true;
        return true;
    }
    // Steps and hooks are in the messages; suites are still followed (no scenario is made of them).
    return this.fromMessages && (name.startsWith('test:') || name === 'hook:end');
  }

  /**
   * A screenshot a command took (`saveScreenshot`, `takeScreenshot`, an `afterTest` hook's on a
   * failure): the bytes it answered, attached to the test that started last, or the scenario.
   */
  private screenshotTaken(command: WdioCommandResult): void {
    const bytes = screenshotOf(command);
    if (!bytes) return;
    const shot: RawAttachment = { name: 'screenshot', contentType: 'image/png', body: bytes };
    if (this.scenario) {
      this.scenario.attachments.push(shot);
      return;
    }
    if (this.currentTest === undefined) return;
    // A test that has ended keeps taking what its hooks take (`afterTest`), until it is handed over.
    const ended = this.outcomes.get(this.currentTest);
    if (ended) ended.attachments = [...(ended.attachments ?? []), shot];
    else this.shots.set(this.currentTest, [...(this.shots.get(this.currentTest) ?? []), shot]);
  }

  private testEnded(test: WdioRunnable, status: CanonicalStatus): void {
    if (status === 'failed') this.sawFailure = true;
    const duration = typeof test.duration === 'number' ? test.duration : 0;
    const failure = status === 'failed' ? { errors: errorsOf(test) } : undefined;
    if (this.scenario) {
      this.scenario.statuses.push(status);
      this.scenario.duration += duration;
      if (failure) this.scenario.errors.push(...failure.errors);
      return;
    }
    const titles = this.titles(test.title);
    const attachments = this.shots.get(this.keyOf(test));
    this.shots.delete(this.keyOf(test));
    const outcome: Outcome = {
      titles,
      status,
      duration,
      file: this.fileOf(test),
      failure,
      ...(attachments ? { attachments } : {}),
    };
    // Passed on a Mocha retry within the worker. A spec file run again (specFileRetries) is
    // not counted: the file failed, not necessarily this test, and an earlier worker's attempt is not known here.
    const retry = this.retryOf.get(this.keyOf(test));
    this.retryOf.delete(this.keyOf(test));
    if (status === 'passed' && retry !== undefined) outcome.attempts = retry + 1;
    this.outcomes.set(this.keyOf(test), outcome);
  }

  /** A test attempt's identity from its start to its end: WebdriverIO's uid, else its titles. */
  private keyOf(test: WdioRunnable): string {
    return test.uid ?? this.titles(test.title).join('\n');
  }

  private scenarioEnded(scenario: Scenario): void {
    this.scenario = undefined;
    const { key, titles, file, statuses, duration, errors, attachments } = scenario;
    const status = worstOf(statuses);
    const failure = status === 'failed' ? { errors } : undefined;
    const taken = attachments.length > 0 ? { attachments } : {};
    this.outcomes.set(key, { titles, file, duration, status, failure, ...taken });
  }

  private runnerEnded(end: WdioRunnerEnd): void {
    // The session did not start, or the worker failed where no test or hook says why (a spec
    // file that did not load): each of its spec files failed, with what is known of why.
    if (end.error) {
      for (const file of this.specs)
        this.fileFailed(file, [`the browser session did not start: ${end.error}`]);
    } else if ((end.failures ?? 0) > 0 && !this.sawFailure) {
      const why = `WebdriverIO's worker ended with ${end.failures} ${end.failures === 1 ? 'failure' : 'failures'} that no test or hook reported: the spec file did not load (its error is in the worker's output)`;
      for (const file of this.specs) this.fileFailed(file, [why]);
    }
  }

  /** A spec file failed outside its tests: what failed it is kept with it, the first reason first. */
  private fileFailed(file: string, errors: unknown[]): void {
    this.failedFiles.set(file, [...(this.failedFiles.get(file) ?? []), ...errors]);
  }

  /** The open suites' titles, then `title`. */
  private titles(title: string | undefined): string[] {
    return [...this.open.map((suite) => suite.title ?? ''), title ?? ''];
  }

  /**
   * The spec file a test or hook belongs to: its own `file`, else its suites'. A worker runs
   * the spec files runner:start names, and Jasmine's adapter names the file where a spec
   * was declared from a stack that may be WebdriverIO's own: a file the worker does not run
   * is not taken; a worker with one spec file names that one.
   */
  private fileOf(runnable: WdioRunnable): string {
    const candidates = [runnable.file, ...[...this.open].reverse().map((suite) => suite.file)];
    const runs = (file: string | undefined): file is string =>
      !!file && (this.specs.length === 0 || this.specs.includes(file));
    return candidates.find(runs) ?? this.specs[0] ?? '';
  }
}

/** WebDriver classic's screenshot endpoints (a page's, an element's), and BiDi's command. */
const SCREENSHOT_ENDPOINT = /\/session\/[^/]+(\/element\/[^/]+)?\/screenshot$/;
const SCREENSHOT_COMMANDS = new Set([
  'takeScreenshot',
  'takeElementScreenshot',
  'browsingContextCaptureScreenshot',
]);

/** The PNG a screenshot command answered, as bytes; undefined for any other command. */
export function screenshotOf(command: WdioCommandResult): Buffer | undefined {
  const isShot =
    SCREENSHOT_COMMANDS.has(command?.command ?? '') || SCREENSHOT_ENDPOINT.test(command?.endpoint ?? '');
  if (!isShot) return undefined;
  const base64 = [
    command.result,
    field(command.result, 'value'),
    field(command.result, 'data'),
    field(field(command.result, 'value'), 'data'),
  ].find((value): value is string => typeof value === 'string' && value !== '');
  if (!base64) return undefined;
  const bytes = Buffer.from(base64, 'base64');
  return bytes.length > 0 ? bytes : undefined;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** What a failed test or hook threw: WebdriverIO gives every error (`errors`), or the first (`error`). */
function errorsOf(runnable: WdioRunnable): unknown[] {
  if (Array.isArray(runnable.errors) && runnable.errors.length > 0) return runnable.errors;
  return runnable.error ? [runnable.error] : [];
}

function statusOf(event: string): CanonicalStatus {
  if (event === 'test:pass') return 'passed';
  if (event === 'test:fail') return 'failed';
  return 'skipped';
}

/**
 * A scenario's status from its steps': failed when a step or hook failed, skipped when no
 * step ran (every step skipped or pending), else passed.
 */
export function worstOf(statuses: readonly CanonicalStatus[]): CanonicalStatus {
  if (statuses.includes('failed')) return 'failed';
  return statuses.some((status) => status === 'passed') ? 'passed' : 'skipped';
}

/** A spec as WebdriverIO names it (a `file://` URL) as a path. */
export function pathOf(spec: string): string {
  try {
    return spec.startsWith('file:') ? fileURLToPath(spec) : spec;
  } catch {
    return spec;
  }
}

/**
 * Whether WebdriverIO runs this worker's spec files again after this attempt
 * (`specFileRetries`): it failed and retries are left. On the first attempt the worker is
 * told -1, and the configuration's count applies (@wdio/local-runner does the same).
 */
export function willBeRetried(end: WdioRunnerEnd, specFileRetries: number): boolean {
  const left = end.retries === undefined || end.retries < 0 ? specFileRetries : end.retries;
  return (end.failures ?? 0) > 0 && left > 0;
}
