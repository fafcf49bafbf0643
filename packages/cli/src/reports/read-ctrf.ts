import { TextDecoder } from 'node:util';
import { JSONParser } from '@streamparser/json';
import { formatCount } from '@testrun/core';
import { FORMATS_SENTENCE, ReportReadError, unreadable } from './open-report.js';

// Reads a CTRF report (https://ctrf.io: the Common Test Report Format, JSON) as a stream
// of events, one chunk at a time, as read-junit.ts reads JUnit: each element of
// `results.tests` is parsed, handed on and dropped, so memory stays flat however many
// tests the report holds. Only what the mapping needs is kept of a test.

/** CTRF's statuses, the only ones its schema allows. */
export const CTRF_STATUSES = ['passed', 'failed', 'skipped', 'pending', 'other'] as const;
export type CtrfStatus = (typeof CTRF_STATUSES)[number];

/** One element of `results.tests`, as written; the mapping decides what each field means. */
export interface CtrfTest {
  /** Its place in `results.tests`, from 0, for messages. */
  index: number;
  name: unknown;
  status: CtrfStatus;
  /** The tool's own word for the status, where the writer gives it (Playwright's `timedOut`, Jest's `todo`). */
  rawStatus: unknown;
  /** Milliseconds, as written. */
  duration: unknown;
  /** A string (`Cart > totals`, levels joined with ` > `) or an array of the levels. */
  suite: unknown;
  filePath: unknown;
  /** Why it failed, where the writer says: the error's message, its stack (`trace`), the test's `line`, its `retries`. */
  message?: unknown;
  trace?: unknown;
  line?: unknown;
  retries?: unknown;
  /** `attachments`: `[{ name, contentType, path }]`, as written. */
  attachments?: unknown;
}

export type CtrfEvent =
  | { kind: 'test'; test: CtrfTest }
  /** `results.tool.name`: which tool wrote it. Sent when read, which may be after tests. */
  | { kind: 'tool'; name: string | undefined };

const STATUSES = new Set<string>(CTRF_STATUSES);

/**
 * Objects and arrays nested deeper than this make the report unreadable. The parser drops
 * each value it need not keep by looking at every level above it: a report of 200 KB nested
 * 100,000 deep took 7.5 s, a million deep minutes. CTRF's own fields nest a few levels; this
 * leaves room for any `extra` a writer adds.
 */
export const MAX_CTRF_DEPTH = 1_000;

/** The parser's tokens that open and close an object or an array (its TokenType). */
const OPENING_TOKENS = new Set([0, 2]);
const CLOSING_TOKENS = new Set([1, 3]);

/**
 * What the parser emits: the values at these paths. With keepStack false it drops every
 * value once it is complete, unless an enclosing value is to be emitted: so no path here
 * may enclose another (`$.results` would keep every test until the end).
 */
const PATHS = ['$.reportFormat', '$.results.tool', '$.results.tests.*'];

/**
 * Reads a report's bytes (openReport's chunks) and yields its events a chunk at a time.
 * Throws a ReportReadError for a report that is not well-formed JSON or is not a CTRF
 * report; `shownAs` is how messages name the file.
 */
export async function* readCtrf(chunks: AsyncIterable<Buffer>, shownAs: string): AsyncGenerator<CtrfEvent[]> {
  const reader = new CtrfEventReader(shownAs);
  let decoder: TextDecoder | undefined;
  try {
    for await (const chunk of chunks) {
      decoder ??= decoderFor(chunk);
      reader.write(decoder.decode(chunk, { stream: true }));
      const events = reader.take();
      if (events.length > 0) yield events;
    }
    reader.write(decoder?.decode() ?? '');
    reader.close();
    const events = reader.take();
    if (events.length > 0) yield events;
  } catch (error) {
    throw unreadable(error, shownAs);
  }
}

/** Turns parser callbacks into events; throws a ReportReadError at the first problem. */
class CtrfEventReader {
  private readonly parser = new JSONParser({ paths: PATHS, keepStack: false });
  private events: CtrfEvent[] = [];
  private problem: ReportReadError | undefined;
  private reportFormat: unknown;
  private sawTool = false;
  private tests = 0;
  /** Where the bytes fed so far end: for the line and column of a syntax error. */
  private line = 1;
  private lineStart = 0;
  private bytes = 0;
  private chunk: Buffer = Buffer.alloc(0);
  private tokenOffset = 0;
  /** Objects and arrays open around the current token. */
  private depth = 0;

  constructor(private readonly shownAs: string) {
    this.parser.onValue = ({ value, key, parent, stack }) => {
      if (this.problem) return;
      const depth = stack.length;
      if (depth === 3 && Array.isArray(parent)) this.test(value, key as number);
      else if (depth === 3) this.problem = this.notCtrf('its results.tests is an object, not an array');
      else if (depth === 2 && key === 'tool') this.tool(value);
      else if (depth === 1 && key === 'reportFormat') this.reportFormat = value;
    };
    // Where the last token starts, for an error the token parser reports without a place; and
    // how deep the value being read is, refused past MAX_CTRF_DEPTH before the parser goes on.
    this.parser.onToken = ({ token, offset }) => {
      this.tokenOffset = offset;
      if (CLOSING_TOKENS.has(token)) this.depth -= 1;
      else if (OPENING_TOKENS.has(token) && ++this.depth > MAX_CTRF_DEPTH) throw this.tooDeep(offset);
    };
    // A problem thrown from onToken stops the tokenizer and comes back here as it is.
    this.parser.onError = (error) => {
      this.problem ??= error instanceof ReportReadError ? error : this.syntaxError(error);
    };
  }

  write(text: string): void {
    if (this.parser.isEnded && /\S/.test(text)) this.fail('it goes on after the end of its JSON');
    this.throwProblem();
    if (text === '' || this.parser.isEnded) return;
    const bytes = Buffer.from(text, 'utf8');
    this.chunk = bytes;
    this.parser.write(bytes);
    this.throwProblem();
    this.advance(bytes, bytes.length);
  }

  close(): void {
    if (!this.parser.isEnded) {
      if (this.bytes === 0) {
        throw new ReportReadError('CTRF_MALFORMED', this.shownAs, `${this.shownAs}: the file is empty.`);
      }
      this.parser.end();
      this.throwProblem();
    }
    if (this.reportFormat !== undefined && this.reportFormat !== 'CTRF') {
      throw this.notCtrf(`its reportFormat is ${JSON.stringify(this.reportFormat)}, not "CTRF"`);
    }
    // A report of no tests says what it is by its reportFormat or its results.tool: JSON
    // with neither and no test (Jest's --json output, a package.json) is something else.
    if (this.reportFormat === undefined && !this.sawTool && this.tests === 0) {
      throw this.notCtrf('it has no reportFormat "CTRF", no results.tool and no results.tests');
    }
  }

  take(): CtrfEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  private test(value: unknown, index: number): void {
    this.tests++;
    if (!isObject(value)) {
      this.fail(`results.tests[${index}] is ${describeValue(value)}, not a test object`);
      return;
    }
    const status = typeof value.status === 'string' ? value.status.trim().toLowerCase() : undefined;
    if (status === undefined || !STATUSES.has(status)) {
      const written = value.status === undefined ? 'no status' : `the status ${JSON.stringify(value.status)}`;
      this.fail(`results.tests[${index}] has ${written}; CTRF's statuses are ${CTRF_STATUSES.join(', ')}`);
      return;
    }
    this.events.push({
      kind: 'test',
      test: {
        index,
        name: value.name,
        status: status as CtrfStatus,
        rawStatus: value.rawStatus,
        duration: value.duration,
        suite: value.suite,
        filePath: value.filePath,
        ...(value.attachments === undefined ? {} : { attachments: value.attachments }),
        ...(status === 'passed'
          ? {}
          : { message: value.message, trace: value.trace, line: value.line, retries: value.retries }),
      },
    });
  }

  private tool(value: unknown): void {
    this.sawTool = true;
    const name = isObject(value) && typeof value.name === 'string' ? value.name.trim() : '';
    this.events.push({ kind: 'tool', name: name === '' ? undefined : name });
  }

  private notCtrf(reason: string): ReportReadError {
    return new ReportReadError(
      'CTRF_NOT_CTRF',
      this.shownAs,
      `${this.shownAs}: not a CTRF report: ${reason}. ${FORMATS_SENTENCE}`,
    );
  }

  private tooDeep(offset: number): ReportReadError {
    const at = this.position(Math.max(0, Math.min(offset - this.bytes, this.chunk.length)));
    return new ReportReadError(
      'CTRF_TOO_DEEP',
      this.shownAs,
      `${this.shownAs}:${at.line}:${at.column}: its objects and arrays nest more than ${formatCount(MAX_CTRF_DEPTH)} levels deep; testrun upload reads CTRF nested up to ${formatCount(MAX_CTRF_DEPTH)} levels. Write the report with fewer levels.`,
      at.line,
    );
  }

  /** A report that breaks CTRF's schema: nothing of it is sent, as with malformed XML. */
  private fail(reason: string): void {
    this.problem ??= new ReportReadError('CTRF_MALFORMED', this.shownAs, `${this.shownAs}: ${reason}.`);
  }

  private throwProblem(): void {
    if (this.problem) throw this.problem;
  }

  /**
   * The parser's message as a line naming where. The tokenizer says `Unexpected "x" at …
   * (absolute position "6")`, the token parser `Unexpected RIGHT_BRACE ("}") in state KEY`
   * (at the last token).
   */
  private syntaxError(error: Error): ReportReadError {
    const character = /^Unexpected "(.*)" at .*absolute position "(\d+)"/s.exec(error.message);
    const token = /^Unexpected [A-Z_]+ \("(.*)"\) in state/s.exec(error.message);
    const unexpected = character ?? (token ? [token[0], token[1], String(this.tokenOffset)] : undefined);
    if (unexpected) {
      const offset = Number(unexpected[2]) - this.bytes;
      const at = this.position(Math.max(0, Math.min(offset, this.chunk.length)));
      return new ReportReadError(
        'CTRF_MALFORMED',
        this.shownAs,
        `${this.shownAs}:${at.line}:${at.column}: not well-formed JSON (unexpected ${JSON.stringify(unexpected[1])}).`,
        at.line,
      );
    }
    if (/ended in (?:mid-parsing|the middle of a token)/.test(error.message)) {
      return new ReportReadError(
        'CTRF_MALFORMED',
        this.shownAs,
        `${this.shownAs}:${this.line}: not well-formed JSON (it ends inside a value). It ends too early: was the test process stopped while writing it?`,
        this.line,
      );
    }
    return new ReportReadError(
      'CTRF_MALFORMED',
      this.shownAs,
      `${this.shownAs}: not well-formed JSON (${error.message.replace(/\.$/, '')}).`,
    );
  }

  /** Line and column (from 1) of a byte of the chunk being parsed. */
  private position(offset: number): { line: number; column: number } {
    let line = this.line;
    let lineStart = this.lineStart - this.bytes;
    for (let i = this.chunk.indexOf(0x0a); i !== -1 && i < offset; i = this.chunk.indexOf(0x0a, i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { line, column: offset - lineStart + 1 };
  }

  private advance(chunk: Buffer, length: number): void {
    for (let i = chunk.indexOf(0x0a); i !== -1 && i < length; i = chunk.indexOf(0x0a, i + 1)) {
      this.line++;
      this.lineStart = this.bytes + i + 1;
    }
    this.bytes += length;
  }
}

/** JSON is UTF-8; a UTF-16 byte order mark is honoured, a UTF-8 one skipped (TextDecoder does). */
function decoderFor(firstChunk: Buffer): TextDecoder {
  if (firstChunk[0] === 0xff && firstChunk[1] === 0xfe) return new TextDecoder('utf-16le');
  if (firstChunk[0] === 0xfe && firstChunk[1] === 0xff) return new TextDecoder('utf-16be');
  return new TextDecoder('utf-8');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string'
    ? 'a string'
    : typeof value === 'object'
      ? 'an object'
      : `a ${typeof value}`;
}
