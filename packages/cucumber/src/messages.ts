// The parts of Cucumber's messages (the `envelope` events every formatter receives) that
// the mapping reads. Written out here rather than imported from @cucumber/messages: the
// package then has no dependency but core, and every field read is optional, so an
// envelope from another Cucumber major that lacks one is read, never trusted.

export interface Timestamp {
  seconds?: number | string;
  nanos?: number;
}

export interface Location {
  line?: number;
  column?: number;
}

export interface GherkinStep {
  id?: string;
  location?: Location;
  /** `Given `, `When `, `And `… as written, with its space. */
  keyword?: string;
}

export interface GherkinScenario {
  id?: string;
  location?: Location;
  name?: string;
  keyword?: string;
  steps?: GherkinStep[];
  examples?: { id?: string; name?: string; tableBody?: { id?: string; location?: Location }[] }[];
}

export interface GherkinChild {
  background?: { steps?: GherkinStep[] };
  scenario?: GherkinScenario;
  rule?: { id?: string; name?: string; children?: GherkinChild[] };
}

export interface GherkinDocument {
  uri?: string;
  feature?: { name?: string; children?: GherkinChild[] };
}

export interface Pickle {
  id?: string;
  uri?: string;
  name?: string;
  /** The scenario's id, then the example row's id for a Scenario Outline's example. */
  astNodeIds?: string[];
  /** The scenario's line, or the example row's (Cucumber 10+). */
  location?: Location;
  /** Each step: the feature file step's id first in astNodeIds; its text (an outline's with the example's values). */
  steps?: { id?: string; astNodeIds?: string[]; text?: string }[];
}

export interface TestCase {
  id?: string;
  pickleId?: string;
  /** The steps it runs: a pickle step's, or a hook's (no pickleStepId). */
  testSteps?: { id?: string; pickleStepId?: string }[];
}

export type StepStatus = 'UNKNOWN' | 'PASSED' | 'SKIPPED' | 'PENDING' | 'UNDEFINED' | 'AMBIGUOUS' | 'FAILED';

export interface TestStepResult {
  status?: StepStatus | string;
  duration?: Timestamp;
  /** What failed, as text: the error's message and stack (every Cucumber version writes it). */
  message?: string;
  /** The same, apart (Cucumber 10+): its message and its stack. */
  exception?: { type?: string; message?: string; stackTrace?: string };
}

/** A file or text a step attached (`this.attach`, `this.log`, `this.link`). */
export interface Attachment {
  body?: string;
  /** `BASE64` for bytes, `IDENTITY` for text as it is. */
  contentEncoding?: string;
  mediaType?: string;
  fileName?: string;
  testCaseStartedId?: string;
  testStepId?: string;
}

export interface Envelope {
  attachment?: Attachment;
  gherkinDocument?: GherkinDocument;
  pickle?: Pickle;
  parseError?: { source?: { uri?: string; location?: Location }; message?: string };
  testCase?: TestCase;
  testCaseStarted?: { id?: string; testCaseId?: string; attempt?: number; timestamp?: Timestamp };
  testStepFinished?: { testCaseStartedId?: string; testStepId?: string; testStepResult?: TestStepResult };
  testCaseFinished?: { testCaseStartedId?: string; timestamp?: Timestamp; willBeRetried?: boolean };
  testRunHookFinished?: { result?: TestStepResult };
  testRunStarted?: object;
  testRunFinished?: { success?: boolean; exception?: { message?: string } };
}

/** Milliseconds since the epoch; NaN when the timestamp is missing (core sends that as 0). */
export function millisOf(timestamp: Timestamp | undefined): number {
  if (!timestamp) return Number.NaN;
  return Number(timestamp.seconds ?? 0) * 1000 + (timestamp.nanos ?? 0) / 1e6;
}
