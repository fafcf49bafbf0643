import type { CanonicalStatus, RawAttachment, RawFailure, RawTest } from '@testrun/core';
import { FeatureLines } from './feature-lines.js';
import {
  type Attachment,
  type Envelope,
  millisOf,
  type StepStatus,
  type TestStepResult,
} from './messages.js';
import { ScenarioNames } from './scenario-names.js';

// Cucumber's messages, as a formatter receives them one envelope at a time, become results:
// one per scenario (an outline: one per example) with the outcome of its last attempt. What
// the rules are and why is written out for users in docs/naming.md#cucumber.

/** Where the mapping hands what it decided; the formatter passes it on to core. */
export interface ResultSink {
  /** A scenario's result, in the feature file `uri` (relative to Cucumber's working directory). */
  scenario(uri: string, test: RawTest): void;
  /** A feature file Cucumber could not parse: it ran none of its scenarios. `failure`: Cucumber's parse error. */
  fileFailed(uri: string, failure: RawFailure): void;
  /** A failure outside any scenario (a BeforeAll or AfterAll hook). */
  runError(message: string): void;
}

/** What the command line says, when it says it (undefined: not said there, so decided from the messages). */
export interface RunHints {
  dryRun?: boolean;
  strict?: boolean;
}

/** How the run ended, as the messages tell it. */
export interface RunEnd {
  /** Cucumber ran no step (`--dry-run`): nothing was handed to the sink. */
  dryRun: boolean;
  /** Results handed to the sink. */
  results: number;
  /** Cucumber's verdict on the run. */
  success: boolean;
}

/** Cucumber's own order of step statuses, the worst last: a scenario's status is its worst step's. */
const SEVERITY: readonly string[] = [
  'UNKNOWN',
  'PASSED',
  'SKIPPED',
  'PENDING',
  'UNDEFINED',
  'AMBIGUOUS',
  'FAILED',
];

interface Attempt {
  testCaseId: string;
  started: number;
  worst: StepStatus;
  /** A step ran (or a hook): what only a run that is not `--dry-run` shows. */
  executed: boolean;
  /** Which attempt this is, 1 for the first (Cucumber counts retries from 0). */
  number: number | undefined;
  /** What the failed (or ambiguous) steps and hooks said; an undefined or pending step, which it was. */
  errors: unknown[];
  /** The feature file line of the first step that failed, was undefined or pending (none when a hook failed). */
  failedLine: number | undefined;
}

export class EnvelopeMapping {
  private readonly names = new ScenarioNames();
  private readonly lines = new FeatureLines();
  private readonly pickleOf = new Map<string, string>();
  private readonly attempts = new Map<string, Attempt>();
  /** What each test case's attempts attached so far: its result carries them all, by attempt. */
  private readonly attached = new Map<string, RawAttachment[]>();
  /**
   * Until a step is seen to run, the run may be a `--dry-run` (which Cucumber's messages do
   * not say): results wait here, and go out at the first step that ran, or at the end when
   * Cucumber says the run failed. A dry run's end finds them here and drops them.
   */
  private waiting: (() => void)[] | undefined = [];
  /** Scenarios whose worst step is pending: failed or todo once Cucumber says whether that fails the run (strict). */
  private pending: { uri: string; test: RawTest }[] = [];
  private results = 0;
  private runErrors = 0;
  /** A scenario ended failed: the run failed, whatever testRunFinished says (Cucumber 10's `--parallel`). */
  private failedSeen = false;

  constructor(
    private readonly sink: ResultSink,
    private readonly hints: RunHints = {},
  ) {
    if (hints.dryRun === false) this.waiting = undefined;
  }

  add(envelope: Envelope): RunEnd | undefined {
    const e = envelope;
    if (e.gherkinDocument) {
      this.names.addDocument(e.gherkinDocument);
      this.lines.addDocument(e.gherkinDocument);
    } else if (e.pickle) {
      this.names.addPickle(e.pickle);
      this.lines.addPickle(e.pickle);
    } else if (e.testCase?.id && e.testCase.pickleId) {
      this.pickleOf.set(e.testCase.id, e.testCase.pickleId);
      this.lines.addTestCase(e.testCase);
    } else if (e.testCaseStarted?.id && e.testCaseStarted.testCaseId) {
      this.attempts.set(e.testCaseStarted.id, {
        testCaseId: e.testCaseStarted.testCaseId,
        started: millisOf(e.testCaseStarted.timestamp),
        worst: 'UNKNOWN',
        executed: false,
        number: typeof e.testCaseStarted.attempt === 'number' ? e.testCaseStarted.attempt + 1 : undefined,
        errors: [],
        failedLine: undefined,
      });
    } else if (e.testStepFinished) {
      const attempt = this.attempts.get(e.testStepFinished.testCaseStartedId ?? '');
      if (attempt) this.addStep(attempt, e.testStepFinished);
    } else if (e.testCaseFinished) this.finishAttempt(e.testCaseFinished);
    else if (e.attachment) this.addAttachment(e.attachment);
    else if (e.parseError?.source?.uri) {
      const { source, message } = e.parseError;
      const uri = source.uri as string;
      const line = source.location?.line;
      const failure = {
        errors: [message || 'Cucumber could not parse the file'],
        location: line ? { file: uri, line, column: source.location?.column } : undefined,
      };
      this.emit(() => this.sink.fileFailed(uri, failure));
    } else if (e.testRunHookFinished?.result?.status === 'FAILED') {
      this.emitRunError(`a BeforeAll or AfterAll hook failed: ${e.testRunHookFinished.result.message ?? ''}`);
    } else if (e.testRunFinished) return this.finishRun(e.testRunFinished);
    return undefined;
  }

  /** What is still held when the process goes away before the run's end: a run that was cut short is no dry run. */
  flush(): void {
    this.release();
    for (const { uri, test } of this.pending.splice(0))
      this.sink.scenario(uri, { ...test, status: 'failed' });
  }

  private addStep(attempt: Attempt, finished: NonNullable<Envelope['testStepFinished']>): void {
    const result = finished.testStepResult;
    const status = (result?.status ?? 'UNKNOWN') as StepStatus;
    if (SEVERITY.indexOf(status) > SEVERITY.indexOf(attempt.worst)) attempt.worst = status;
    const ran = millisOf(result?.duration) > 0 || ['PASSED', 'FAILED', 'PENDING'].includes(status);
    if (ran) attempt.executed = true;
    if ((status === 'FAILED' || status === 'AMBIGUOUS') && result) {
      attempt.errors.push(errorOf(result));
      attempt.failedLine ??= this.lines.stepLine(finished.testStepId);
    } else if (status === 'UNDEFINED' || status === 'PENDING') {
      // Cucumber says nothing more of such a step than its status: the message names the step.
      const step = this.lines.stepText(finished.testStepId) ?? 'a step';
      const said = result?.message ? `: ${result.message}` : '';
      attempt.errors.push(`${status === 'UNDEFINED' ? 'Undefined' : 'Pending'} step: ${step}${said}`);
      attempt.failedLine ??= this.lines.stepLine(finished.testStepId);
    }
  }

  /** What a step of a running attempt attached, kept with its test case until its last attempt ends. */
  private addAttachment(attachment: Attachment): void {
    const attempt = this.attempts.get(attachment.testCaseStartedId ?? '');
    if (!attempt || typeof attachment.body !== 'string') return;
    const list = this.attached.get(attempt.testCaseId) ?? [];
    list.push(rawAttachment(attachment, attempt.number));
    this.attached.set(attempt.testCaseId, list);
  }

  private finishAttempt(finished: NonNullable<Envelope['testCaseFinished']>): void {
    const attempt = this.attempts.get(finished.testCaseStartedId ?? '');
    if (!attempt) return;
    this.attempts.delete(finished.testCaseStartedId ?? '');
    if (attempt.executed) this.release();
    // An attempt Cucumber retries is no result: the last attempt's outcome is (a scenario
    // that passes on its retry is passed).
    if (finished.willBeRetried) return;
    const attachments = this.attached.get(attempt.testCaseId);
    this.attached.delete(attempt.testCaseId);
    const pickleId = this.pickleOf.get(attempt.testCaseId);
    const named = this.names.of(pickleId);
    if (!named) return;
    // Where: the step that failed (or was undefined or pending), else (a hook) where the scenario is declared.
    const at = (line: number | undefined) => (line ? { file: named.uri, line } : undefined);
    const failure = {
      errors: attempt.errors,
      attempts: attempt.number,
      location: at(attempt.failedLine),
      declaredAt: at(this.lines.declaredLine(pickleId)),
    };
    const test: RawTest = {
      titles: named.titles,
      status: 'passed',
      duration: millisOf(finished.timestamp) - attempt.started,
      ...(attachments ? { attachments } : {}),
    };
    if (attempt.worst === 'PENDING' && this.hints.strict === undefined) {
      // Failed or todo, once the run's end says; why, if failed: its pending step.
      this.pending.push({ uri: named.uri, test: { ...test, failure } });
      return;
    }
    const status = statusOf(attempt.worst, this.hints.strict !== false);
    // `--retry`: a scenario that passed on a later attempt (passed on a retry).
    const attempts = status === 'passed' && (attempt.number ?? 1) > 1 ? attempt.number : undefined;
    const failed = status === 'failed' ? failure : undefined;
    if (failed) this.failedSeen = true;
    this.emit(() => this.sink.scenario(named.uri, { ...test, status, failure: failed, attempts }));
  }

  private finishRun(finished: NonNullable<Envelope['testRunFinished']>): RunEnd {
    // Cucumber 10's --parallel coordinator says `success: true` of a run that failed (its exit
    // code is 1): a scenario that failed where steps ran says otherwise. Where no step ran (a
    // dry run, or only undefined steps), Cucumber's word is all there is.
    const success = finished.success !== false && !(this.failedSeen && this.waiting === undefined);
    if (this.waiting && this.waiting.length > 0 && success) {
      this.waiting = undefined;
      this.pending = [];
      return { dryRun: true, results: 0, success };
    }
    this.release();
    // A run with pending steps fails only in strict mode (Cucumber's default): a run that
    // passed with them was not strict, and they are todo, as Cucumber itself counts them.
    const strict = !success;
    for (const { uri, test } of this.pending.splice(0)) {
      this.emit(() => this.sink.scenario(uri, { ...test, status: statusOf('PENDING', strict) }));
    }
    if (!success && finished.exception?.message && this.runErrors === 0) {
      this.emitRunError(finished.exception.message);
    }
    return { dryRun: false, results: this.results, success };
  }

  private emitRunError(message: string): void {
    this.runErrors += 1;
    this.emit(() => this.sink.runError(message));
  }

  private emit(send: () => void): void {
    if (this.waiting) this.waiting.push(send);
    else this.send(send);
  }

  private send(send: () => void): void {
    this.results += 1;
    send();
  }

  /** A step ran: this is no dry run, and what waited goes out. */
  private release(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    for (const send of waiting ?? []) this.send(send);
  }
}

/**
 * An attachment as core takes it: bytes (BASE64) or text (IDENTITY), its media type, its file
 * name when the step gave one, else a name by what it is (`log` for `this.log`, `link` for
 * `this.link`, `attachment` otherwise).
 */
export function rawAttachment(attachment: Attachment, attempt: number | undefined): RawAttachment {
  const { body = '', contentEncoding, mediaType, fileName } = attachment;
  const isLog = mediaType === 'text/x.cucumber.log+plain';
  const isLink = mediaType === 'text/uri-list';
  return {
    name: fileName || (isLog ? 'log' : isLink ? 'link' : 'attachment'),
    // Cucumber's own log type is plain text to anyone else.
    contentType: isLog ? 'text/plain' : mediaType,
    body: contentEncoding === 'BASE64' ? Buffer.from(body, 'base64') : body,
    ...(attempt === undefined ? {} : { attempt }),
  };
}

/** A failed step as an error: its exception's message and stack apart when Cucumber gives them, else its text. */
function errorOf(result: TestStepResult): unknown {
  const { exception, message } = result;
  if (typeof exception?.message === 'string') {
    return { message: exception.message, stack: exception.stackTrace ?? message ?? '' };
  }
  return message ?? '';
}

/**
 * A scenario's status from its worst step: undefined and ambiguous steps fail it, as they
 * fail Cucumber's run; a pending step fails it when the run is strict (Cucumber's default,
 * where it fails the run), else it is todo; skipped steps (`return 'skipped'`, a Before hook
 * that skips) skip it.
 */
export function statusOf(worst: StepStatus, strict: boolean): CanonicalStatus {
  switch (worst) {
    case 'PASSED':
      return 'passed';
    case 'PENDING':
      return strict ? 'failed' : 'todo';
    case 'SKIPPED':
    case 'UNKNOWN':
      return 'skipped';
    default:
      return 'failed';
  }
}
