import path from 'node:path';
import { redact, type SecretPattern } from '../output/redact.js';
import { startDir } from '../start-dir.js';
import type { FailureDetails, RawFailure } from '../types.js';
import { toTestSuite } from './result-name.js';

/**
 * Bounds of the `failure-details` extension, in UTF-16 code units (what JavaScript's
 * `length` counts; never fewer than the characters a service counts): a failure's message
 * is what a person reads first, its stack is what they read next, and a 5,000-line stack of
 * a recursion helps nobody. The local server refuses anything longer (docs/design/failure-details.md#bounds).
 */
export const FAILURE_DETAIL_LIMITS = {
  message: 4_096,
  stack: 16_384,
  location: 1_024,
  attempts: 1_000,
} as const;

/** What a cut text ends with, so that nobody takes it for the whole message. */
const CUT_MARK = '… (truncated)';

export interface FailureContext {
  /** Absolute path of the test file: where the stack is searched for a location. */
  file?: string | undefined;
  /** Files are named relative to this, as testSuite is (result-name.ts). */
  rootDir: string;
  /** The API key and its escaped forms: never sent, even when a test prints it in an assertion. */
  secrets: SecretPattern | undefined;
  /**
   * Where the test command started (core's startDir by default): some runners (Mocha) cut it
   * off the paths in a stack, so the test file is looked for relative to it too.
   */
  startDir?: string;
}

/**
 * The extension's fields for one failed test, from what its runner said: the first error's
 * message and stack (how many more errors there were is said in the message), where it
 * failed (the runner's own location, else the test file's first line in the stack, else
 * where the test is declared), and how
 * many times it ran. Cleaned (ANSI colours and control characters removed), redacted, cut to
 * FAILURE_DETAIL_LIMITS. Undefined when nothing is known. Never throws: a runner's error
 * object may be anything, a getter that throws included.
 */
export function toFailureDetails(
  failure: RawFailure | undefined,
  context: FailureContext,
): FailureDetails | undefined {
  if (!failure) return undefined;
  try {
    const errors = (Array.isArray(failure.errors) ? failure.errors : []).map(readError);
    const first = errors.find((error) => error.message !== '' || error.stack !== '');
    const details: FailureDetails = {};
    const more = errors.length - 1;
    const message = clean(first?.message ?? '', context.secrets);
    const said = more > 0 ? `${message}\n(and ${more} more ${more === 1 ? 'error' : 'errors'})` : message;
    if (said !== '') details.message = cut(said, FAILURE_DETAIL_LIMITS.message);
    const stack = clean(first?.stack ?? '', context.secrets);
    if (stack !== '') details.stack = cut(stack, FAILURE_DETAIL_LIMITS.stack);
    const location =
      givenLocation(failure.location, context.rootDir) ??
      locationInStack(errors.map((error) => error.stack || error.message).join('\n'), context) ??
      givenLocation(failure.declaredAt, context.rootDir);
    if (location) details.location = cut(clean(location, context.secrets), FAILURE_DETAIL_LIMITS.location);
    const attempts = failure.attempts;
    if (typeof attempts === 'number' && Number.isInteger(attempts) && attempts >= 1) {
      details.attempts = Math.min(attempts, FAILURE_DETAIL_LIMITS.attempts);
    }
    return Object.keys(details).length > 0 ? details : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The extension's fields for a passed test: `{ attempts }` when the runner says it ran more than
 * once (it passed on a retry, which makes it flaky:
 * docs/design/failure-details.md#a-pass-on-a-retry); undefined for a test that passed at once, so a
 * passed result without retries is the spec's four fields.
 */
export function retriedPassDetails(attempts: unknown): FailureDetails | undefined {
  if (typeof attempts !== 'number' || !Number.isInteger(attempts) || attempts < 2) return undefined;
  return { attempts: Math.min(attempts, FAILURE_DETAIL_LIMITS.attempts) };
}

/**
 * An error as message and stack. Text (Jest's failureMessages, a JUnit failure's body) is
 * the message up to its first stack frame, and the stack whole; so is the stack of an error
 * whose message is empty. A stack that does not start with the message (V8's do) keeps it
 * anyway: the message is shown apart.
 */
function readError(error: unknown): { message: string; stack: string } {
  if (typeof error === 'string') return readText(error);
  if (error !== null && typeof error === 'object') {
    const { message, stack } = error as { message?: unknown; stack?: unknown };
    const said = typeof message === 'string' ? message : message === undefined ? '' : String(message);
    const trace = typeof stack === 'string' ? stack : '';
    // An error with a stack and no message (Jest's afterAll errors, a Vitest pool error):
    // the stack's own first lines say what it was.
    if (said.trim() === '' && trace !== '') return { message: readText(trace).message, stack: trace };
    return { message: said, stack: trace };
  }
  return { message: error === undefined || error === null ? '' : String(error), stack: '' };
}

/** Text as an error: the message up to its first stack frame, and the whole as the stack when it has frames. */
function readText(error: string): { message: string; stack: string } {
  const text = stripAnsi(error);
  const frame = text.search(/\n\s+at /);
  return { message: (frame === -1 ? text : text.slice(0, frame)).trim(), stack: frame === -1 ? '' : text };
}

/** `file:line[:column]` from what the runner said; undefined without a file and a line. */
function givenLocation(location: RawFailure['location'], rootDir: string): string | undefined {
  if (!location || typeof location.file !== 'string' || location.file === '') return undefined;
  const line = positive(location.line);
  if (line === undefined) return undefined;
  const column = positive(location.column);
  return `${named(location.file, rootDir)}:${line}${column === undefined ? '' : `:${column}`}`;
}

/** The test file's first `path:line[:column]` in the stack: the line of the test that threw. */
function locationInStack(stack: string, context: FailureContext): string | undefined {
  const { file } = context;
  if (!file || stack === '') return undefined;
  const url = `file://${file.startsWith('/') ? '' : '/'}${file.replaceAll('\\', '/')}`;
  const relative = path.relative(context.startDir ?? startDir, file);
  for (const form of [file, url, encodeURI(url), relative]) {
    // A whole path: `a.test.js` is not the end of `xa.test.js` or `src/a.test.js`.
    const match = new RegExp(`(?<![\\w./-])${escapeRegExp(form)}:(\\d+)(?::(\\d+))?`).exec(stack);
    if (match) return `${named(file, context.rootDir)}:${match[1]}${match[2] ? `:${match[2]}` : ''}`;
  }
  return undefined;
}

/** A file as testSuite names it: relative to the root, forward slashes. */
function named(file: string, rootDir: string): string {
  const local = file.startsWith('file://') ? decodeURI(file.slice('file://'.length)) : file;
  return path.isAbsolute(local) || /^[A-Za-z]:[\\/]/.test(local) ? toTestSuite(local, rootDir) : local;
}

function positive(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 ? number : undefined;
}

/**
 * Text a page can show: colours and control characters removed (line breaks and tabs kept),
 * well formed (a lone surrogate, which a test about text may well print, becomes U+FFFD: the
 * local server refuses it, and the whole batch with it), secrets redacted.
 */
function clean(text: string, secrets: SecretPattern | undefined): string {
  return redact(
    stripAnsi(text.toWellFormed()).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ''),
    secrets,
  ).trim();
}

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** At most `limit` code units, the cut said, a surrogate pair never split. */
export function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit - CUT_MARK.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + CUT_MARK;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
