import { TextDecoder } from 'node:util';
import { formatCount } from '@testrun/core';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { FORMATS_SENTENCE, ReportReadError, unreadable } from './open-report.js';

// Reads a JUnit XML report as a stream of events, one chunk at a time: memory stays flat
// however large the report. Only the structure is read (names, times, outcomes) and, of a
// failed testcase, its first <failure>/<error> (message and text, held up to FAILURE_TEXT_LIMIT
// characters: why it failed); logs are never held, only scanned for the files a testcase names
// (`[[ATTACHMENT|path]]`).

export type JunitOutcome = 'passed' | 'failed' | 'skipped';

/** One <testcase>, with what the mapping needs from the elements around it. */
export interface JunitTestcase {
  name: string | undefined;
  classname: string | undefined;
  /**
   * The testcase's `file` attribute, else the nearest enclosing <testsuite>'s (which takes
   * it from an earlier sibling "Root Suite" when it has none: Cypress); as written.
   */
  file: string | undefined;
  /** `name` of the nearest enclosing <testsuite>. */
  suiteName: string | undefined;
  /** Which <testsuite> holds it: 1 for the report's first, in document order; 0 for none. */
  suite: number;
  /** `time` as written: seconds. */
  time: string | undefined;
  /**
   * failed: a <failure> or <error> inside, or a `status` that says it failed; skipped: a
   * <skipped>, or a `status` or `result` that says it did not run; else passed.
   */
  outcome: JunitOutcome;
  /** Line of the <testcase> tag, for messages. */
  line: number;
  /** Its first <failure> or <error>: the `message` attribute and the text inside (a stack, as most writers put it). */
  failure?: { message: string | undefined; text: string };
  /**
   * Files its <system-out> or <system-err> names as `[[ATTACHMENT|path]]` (the Jenkins JUnit
   * Attachments plugin's and Azure Pipelines' convention), as written; at most MAX_ATTACHMENTS.
   */
  attachments?: string[];
}

/** `[[ATTACHMENT|/path/to/file.png]]`, on a line of a testcase's output. */
const ATTACHMENT_MARK = /\[\[ATTACHMENT\|([^\]\r\n|]{1,4096})\]\]/g;
/** The end of output held between text chunks, where a mark cut by a chunk boundary may start. */
const MARK_CARRY = 4200;
/** Files one testcase names at most. */
const MAX_ATTACHMENTS = 100;

/**
 * Elements nested deeper than this make the report unreadable. Reading takes time linear in
 * the depth, but memory too (a frame per open element: a 4 MB report nested a million deep
 * held 466 MB); writers nest a <testsuite> per file or class, at most per `describe`.
 */
export const MAX_JUNIT_DEPTH = 1_000;

/** The text of a <failure> held at most: core cuts a stack to 16,384 characters anyway. */
const FAILURE_TEXT_LIMIT = 20_000;

/** A <testsuite> that holds an <error> or <failure> of its own, outside any testcase: it did not run (or not fully). */
export interface JunitSuiteFailure {
  name: string | undefined;
  file: string | undefined;
  line: number;
  /** Failed testcases inside it (nested suites included). */
  failedTestcases: number;
}

/** The first elements of the report: what `detectFramework` reads. */
export interface JunitHead {
  root: SaxesTagPlain;
  /** The first <testsuite> (the root itself when it is one). */
  firstSuite: SaxesTagPlain | undefined;
}

export type JunitEvent =
  | { kind: 'head'; head: JunitHead }
  | { kind: 'testcase'; testcase: JunitTestcase }
  | { kind: 'suite-failure'; suite: JunitSuiteFailure }
  /** Characters XML 1.0 forbids (raw, or as references such as `&#8;`), read as spaces: how many. Sent once, at the end, if there were any. */
  | { kind: 'replaced-characters'; count: number };

/**
 * Characters XML 1.0 does not allow anywhere, not even escaped: C0 controls other than
 * tab, newline and carriage return, and U+FFFE/U+FFFF. Writers copy them raw from captured
 * test output (colour codes, NUL); each is read as a space, as core names control
 * characters, rather than losing every result of the report.
 */
const FORBIDDEN_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * A numeric character reference, `&#8;` or `&#x1B;`. Dart's JUnit converter writes a
 * control character of captured output as one, which XML 1.0 forbids as much as the raw
 * character: such a reference is read as a space too. A reference to an allowed character
 * is left to the parser, and so is anything malformed (`&#;`, `&#xZZ;`): still refused.
 */
const CHARACTER_REFERENCE = /&#(?:[xX]([0-9A-Fa-f]+)|([0-9]+));/g;

/** The end of a chunk that may be the start of a character reference cut by the chunk boundary. */
const CUT_REFERENCE = /&(?:#(?:[xX][0-9A-Fa-f]*|[0-9]*))?$/;

/** A reference longer than this is no character XML can name (10FFFF is 7 digits in decimal). */
const LONGEST_REFERENCE = 16;

/** A code point XML 1.0 does not allow, not even as a reference. */
function isForbidden(codePoint: number): boolean {
  return (
    (codePoint < 0x20 && codePoint !== 0x9 && codePoint !== 0xa && codePoint !== 0xd) ||
    (codePoint >= 0xd800 && codePoint <= 0xdfff) ||
    codePoint === 0xfffe ||
    codePoint === 0xffff ||
    codePoint > 0x10ffff
  );
}

/** `status`/`result` values of a testcase that did not run, or ran to no verdict: GoogleTest, CTest, tst, NUnit and others. */
const NOT_RUN_STATUSES = new Set([
  'notrun',
  'not_run',
  'not run',
  'disabled',
  'skipped',
  'skip',
  'suppressed',
  'ignored',
  'pending',
  'inconclusive',
]);
/** `status` values of a testcase that failed, for writers that say so without a <failure>. */
const FAILED_STATUSES = new Set(['fail', 'failed', 'failure', 'error', 'errored', 'broken']);

/** Mocha's name for the suite that holds a file's top level; Cypress writes the spec file only on it. */
const MOCHA_ROOT_SUITE = 'Root Suite';

interface SuiteFrame {
  name: string | undefined;
  file: string | undefined;
  number: number;
  line: number;
  ownFailure: boolean;
  /** Failed testcases inside it so far; nested suites add theirs when they close. */
  failedTestcases: number;
}

interface TestcaseFrame {
  testcase: JunitTestcase;
  failed: boolean;
  skipped: boolean;
}

/**
 * One open element. Each frame knows its nearest suite, so that no work depends on how
 * deep the element is: reading is linear in the depth (up to MAX_JUNIT_DEPTH).
 */
interface Frame {
  /** The nearest <testsuite>: the element itself when it is one. */
  suite: SuiteFrame | undefined;
  testcase: TestcaseFrame | undefined;
  /** The file a "Root Suite" child gave its later siblings. */
  rootSuiteFile: string | undefined;
  isSuite: boolean;
  /** A testcase's first <failure> or <error>: its text is gathered into the testcase's `failure`. */
  failureOf?: JunitTestcase;
  /** A testcase's <system-out> or <system-err>: scanned for `[[ATTACHMENT|…]]`, never held (the end of it only, for a mark cut between chunks). */
  outputOf?: { testcase: JunitTestcase; carry: string };
}

/**
 * Reads a report's bytes (openReport's chunks) and yields its events a chunk at a time.
 * Throws a ReportReadError for a report that is not well-formed XML or is not a JUnit report;
 * `shownAs` is how messages name the file.
 */
export async function* readJunit(
  chunks: AsyncIterable<Buffer>,
  shownAs: string,
): AsyncGenerator<JunitEvent[]> {
  const reader = new JunitEventReader(shownAs);
  let decoder: TextDecoder | undefined;
  try {
    for await (const chunk of chunks) {
      decoder ??= decoderFor(chunk, shownAs);
      reader.write(decoder.decode(chunk, { stream: true }));
      const events = reader.take();
      if (events.length > 0) yield events;
    }
    if (!decoder) throw new ReportReadError('JUNIT_MALFORMED', shownAs, `${shownAs}: the file is empty.`);
    reader.write(decoder.decode());
    reader.close();
    const events = reader.take();
    if (events.length > 0) yield events;
  } catch (error) {
    throw unreadable(error, shownAs);
  }
}

/** Turns parser callbacks into events; throws a ReportReadError at the first problem. */
class JunitEventReader {
  private readonly parser = new SaxesParser();
  private readonly stack: Frame[] = [];
  private events: JunitEvent[] = [];
  private root: SaxesTagPlain | undefined;
  private headSent = false;
  private tagLine = 1;
  private suites = 0;
  private replaced = 0;
  /** The end of the last chunk, when it may be a character reference that the next chunk completes. */
  private heldBack = '';

  constructor(private readonly shownAs: string) {
    this.parser.on('opentagstart', () => {
      this.tagLine = this.parser.line;
    });
    this.parser.on('opentag', (tag) => this.open(tag));
    this.parser.on('closetag', () => this.closeElement());
    const gather = (text: string) => {
      const frame = this.stack.at(-1);
      if (frame?.outputOf) scanOutput(frame.outputOf, text);
      const failure = frame?.failureOf?.failure;
      if (failure && failure.text.length < FAILURE_TEXT_LIMIT) {
        failure.text += text.slice(0, FAILURE_TEXT_LIMIT - failure.text.length);
      }
    };
    this.parser.on('text', gather);
    this.parser.on('cdata', gather);
    this.parser.on('error', (error) => {
      const reason = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '').replace(/\.$/, '');
      const cutShort = /unclosed tag|unexpected end/.test(reason)
        ? ' It ends too early: was the test process stopped while writing it?'
        : '';
      throw new ReportReadError(
        'JUNIT_MALFORMED',
        this.shownAs,
        `${this.shownAs}:${this.parser.line}:${this.parser.column}: not well-formed XML (${reason}).${cutShort}`,
        this.parser.line,
      );
    });
  }

  write(text: string): void {
    // A reference cut by the chunk boundary waits for the rest of it.
    let whole = this.heldBack + text;
    const cut = CUT_REFERENCE.exec(whole.slice(-LONGEST_REFERENCE));
    this.heldBack = cut ? cut[0] : '';
    if (cut) whole = whole.slice(0, whole.length - cut[0].length);
    this.parser.write(
      whole
        .replace(FORBIDDEN_CHARACTERS, () => {
          this.replaced++;
          return ' ';
        })
        .replace(CHARACTER_REFERENCE, (reference, hex: string | undefined, decimal: string | undefined) => {
          const codePoint = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
          if (!isForbidden(codePoint)) return reference;
          this.replaced++;
          return ' ';
        }),
    );
  }

  close(): void {
    if (this.heldBack !== '') this.parser.write(this.heldBack);
    this.heldBack = '';
    this.parser.close();
    if (!this.headSent && this.root) this.sendHead(undefined);
    if (this.replaced > 0) this.events.push({ kind: 'replaced-characters', count: this.replaced });
  }

  take(): JunitEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  private open(tag: SaxesTagPlain): void {
    if (!this.root) {
      this.root = tag;
      if (tag.name !== 'testsuites' && tag.name !== 'testsuite') {
        throw new ReportReadError(
          'JUNIT_NOT_JUNIT',
          this.shownAs,
          `${this.shownAs}:${this.tagLine}: not a JUnit XML report: its root element is <${tag.name}>, expected <testsuites> or <testsuite>. ${FORMATS_SENTENCE}`,
          this.tagLine,
        );
      }
    }
    if (this.stack.length >= MAX_JUNIT_DEPTH) {
      throw new ReportReadError(
        'JUNIT_TOO_DEEP',
        this.shownAs,
        `${this.shownAs}:${this.tagLine}: its elements nest more than ${formatCount(MAX_JUNIT_DEPTH)} levels deep; testrun upload reads JUnit XML nested up to ${formatCount(MAX_JUNIT_DEPTH)} levels. Write the report with fewer levels.`,
        this.tagLine,
      );
    }
    const parent = this.stack.at(-1);
    const attributes = tag.attributes;
    switch (tag.name) {
      case 'testsuite': {
        const file = attributes.file ?? parent?.rootSuiteFile ?? parent?.suite?.file;
        if (parent && attributes.name === MOCHA_ROOT_SUITE && attributes.file !== undefined) {
          parent.rootSuiteFile = attributes.file;
        }
        const suite: SuiteFrame = {
          name: attributes.name,
          file,
          number: ++this.suites,
          line: this.tagLine,
          ownFailure: false,
          failedTestcases: 0,
        };
        this.stack.push({ suite, testcase: undefined, rootSuiteFile: undefined, isSuite: true });
        if (!this.headSent) this.sendHead(tag);
        return;
      }
      case 'testcase': {
        const suite = parent?.suite;
        const testcase: JunitTestcase = {
          name: attributes.name,
          classname: attributes.classname,
          file: attributes.file ?? suite?.file,
          suiteName: suite?.name,
          suite: suite?.number ?? 0,
          time: attributes.time,
          outcome: 'passed',
          line: this.tagLine,
        };
        const said = [attributes.status, attributes.result].map((value) => value?.trim().toLowerCase());
        const frame: TestcaseFrame = {
          testcase,
          failed: FAILED_STATUSES.has(said[0] ?? ''),
          skipped: said.some((value) => value !== undefined && NOT_RUN_STATUSES.has(value)),
        };
        this.stack.push({ suite, testcase: frame, rootSuiteFile: undefined, isSuite: false });
        return;
      }
      case 'failure':
      case 'error':
        if (parent?.testcase) {
          parent.testcase.failed = true;
          const { testcase } = parent.testcase;
          if (!testcase.failure) {
            testcase.failure = { message: attributes.message, text: '' };
            this.stack.push({
              suite: parent.suite,
              testcase: undefined,
              rootSuiteFile: undefined,
              isSuite: false,
              failureOf: testcase,
            });
            return;
          }
        } else if (parent?.isSuite && parent.suite) parent.suite.ownFailure = true;
        break;
      case 'skipped':
        if (parent?.testcase) parent.testcase.skipped = true;
        break;
      case 'system-out':
      case 'system-err':
        if (parent?.testcase) {
          this.stack.push({
            suite: parent.suite,
            testcase: undefined,
            rootSuiteFile: undefined,
            isSuite: false,
            outputOf: { testcase: parent.testcase.testcase, carry: '' },
          });
          return;
        }
        break;
    }
    this.stack.push({ suite: parent?.suite, testcase: undefined, rootSuiteFile: undefined, isSuite: false });
  }

  /** The parser only reports a close tag that matches the open one; anything else is an error first. */
  private closeElement(): void {
    const frame = this.stack.pop();
    if (frame?.outputOf) scanOutput(frame.outputOf, '', true);
    if (frame?.testcase) {
      const { testcase, failed, skipped } = frame.testcase;
      testcase.outcome = failed ? 'failed' : skipped ? 'skipped' : 'passed';
      if (failed && frame.suite) frame.suite.failedTestcases++;
      this.events.push({ kind: 'testcase', testcase });
    } else if (frame?.isSuite && frame.suite) {
      const { name, file, line, failedTestcases, ownFailure } = frame.suite;
      const enclosing = this.stack.at(-1)?.suite;
      if (enclosing) enclosing.failedTestcases += failedTestcases;
      if (ownFailure)
        this.events.push({ kind: 'suite-failure', suite: { name, file, line, failedTestcases } });
    }
  }

  private sendHead(firstSuite: SaxesTagPlain | undefined): void {
    this.headSent = true;
    this.events.push({ kind: 'head', head: { root: this.root!, firstSuite } });
  }
}

/**
 * The `[[ATTACHMENT|path]]` marks in the next piece of a testcase's output. Only the end of the
 * output that may hold the start of a mark cut by the chunk boundary is held; `last`: the
 * element ended, nothing more comes.
 */
function scanOutput(output: { testcase: JunitTestcase; carry: string }, text: string, last = false): void {
  const whole = output.carry + text;
  let scannedTo = 0;
  for (const match of whole.matchAll(ATTACHMENT_MARK)) {
    output.testcase.attachments ??= [];
    const found = output.testcase.attachments;
    const path = match[1]!.trim();
    if (path !== '' && found.length < MAX_ATTACHMENTS && !found.includes(path)) found.push(path);
    scannedTo = match.index + match[0].length;
  }
  if (last) {
    output.carry = '';
    return;
  }
  const rest = whole.slice(scannedTo);
  const open = rest.lastIndexOf('[[');
  output.carry = open === -1 ? rest.slice(-1) : rest.slice(Math.max(open, rest.length - MARK_CARRY));
}

/**
 * UTF-8 unless the report says otherwise: a UTF-16 byte order mark, or an `encoding` in
 * its XML declaration (ISO-8859-1 and windows-1252 exist in the wild).
 */
function decoderFor(firstChunk: Buffer, shownAs: string): TextDecoder {
  if (firstChunk[0] === 0xff && firstChunk[1] === 0xfe) return new TextDecoder('utf-16le');
  if (firstChunk[0] === 0xfe && firstChunk[1] === 0xff) return new TextDecoder('utf-16be');
  const declaration = firstChunk.subarray(0, 200).toString('latin1');
  const label = /^(?:\uFEFF|ï»¿)?\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    declaration,
  )?.[1];
  try {
    return new TextDecoder(label ?? 'utf-8');
  } catch {
    throw new ReportReadError(
      'REPORT_UNREADABLE',
      shownAs,
      `${shownAs}:1: its XML declaration names the encoding "${label}", which Node cannot decode; write the report as UTF-8.`,
      1,
    );
  }
}
