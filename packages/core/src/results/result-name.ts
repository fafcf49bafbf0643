import path from 'node:path';
import { sha256Hex } from '../sha256.js';
import type { RawResult, RunPayload } from '../types.js';
import { workspaceRootOf } from './workspace-root.js';

// What a result is called: its testSuite and testCase, for every adapter alike. The rules
// are written out for users in the root README, "How tests map to results".

/** testCase of the one failed result that stands for a file that could not run. */
export const FILE_FAILURE_CASE = '(file failed to run)';

/** testSuite of the results that stand for errors outside any file. */
export const RUN_SUITE = '(run)';

/** testCase prefix of a result that stands for an error outside any test and file. */
export const RUN_ERROR_CASE = '(unhandled error)';

/** Separator between describe titles and the test's title in `testCase`. */
export const TITLE_SEPARATOR = ' > ';

/**
 * Names longer than this many characters (code points) are cut: services index these fields,
 * and 10 KB titles exist. A cut name ends with the mark of the whole name (cutWithMark).
 */
export const MAX_NAME_LENGTH = 1024;

/**
 * A run's project, framework or tag longer than this is cut: services index these too, and
 * the local server refuses longer ones (a PostgreSQL index entry holds at most 2,704 bytes).
 */
export const MAX_LABEL_LENGTH = 512;

/** What an empty name or title shows as. */
export const EMPTY_NAME = '(unnamed)';

const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/**
 * A test file's testSuite: its path relative to the base folder, with `/` separators.
 * The base is `rootDir` (the framework's root); for a project whose root lies outside
 * it, the nearest folder holding both, so a config in a subfolder still names files from
 * the repository's layout; when that folder lies in a package of a workspace (a monorepo),
 * the workspace's root (workspace-root.ts); for a file outside even that, the nearest folder
 * holding both. Never absolute, never `../`: the same on every machine and checkout location.
 */
export function toTestSuite(file: string, rootDir: string, projectRoot?: string): string {
  let base = projectRoot === undefined ? rootDir : commonAncestor(rootDir, projectRoot);
  base = workspaceRootOf(base) ?? base;
  if (!isInside(base, file)) base = commonAncestor(base, file);
  const relative = path.relative(base, file);
  // Another drive (Windows) has no relative path: the path below its root is the best there is.
  const named = path.isAbsolute(relative) ? relative.slice(path.parse(relative).root.length) : relative;
  return named.split(path.sep).join('/');
}

/** `testSuite (variant)`: how a second way of running a file (Vitest's typecheck) sets its results apart. */
export function withVariant(testSuite: string, variant: string | undefined): string {
  return variant ? `${testSuite} (${variant})` : testSuite;
}

/** `[name] testSuite`: how a project's name sets its results apart from another project's. */
export function withProjectLabel(testSuite: string, project: string | undefined): string {
  return project ? `[${project}] ${testSuite}` : testSuite;
}

/**
 * The describe chain and the test's own title, joined with ` > `; an empty title shows as
 * `(unnamed)`. Each title is cleaned, not cut: the whole name is cut once (toResult), so its
 * mark stands for every title.
 */
export function toTestCase(titles: readonly unknown[]): string {
  return titles.map(cleanName).join(TITLE_SEPARATOR);
}

/** `(unhandled error) <first line of the message>`: one error outside any test and file. */
export function toRunErrorCase(message: unknown): string {
  const firstLine = String(message ?? '')
    // Frameworks colour their error messages; the colours are no part of the name.
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim() !== '');
  return firstLine ? `${RUN_ERROR_CASE} ${firstLine.trim()}` : RUN_ERROR_CASE;
}

/**
 * A name as it is sent: control characters (C0 such as NUL, newlines and tabs; DEL; C1) become
 * spaces, text is NFC and well formed (no lone surrogates), an empty name gets a visible
 * placeholder, and a name longer than MAX_NAME_LENGTH is cut with the mark of the whole name
 * (cutWithMark). The same text gives the same name on every machine and in every version.
 */
export function toName(value: unknown): string {
  const text = typeof value === 'string' ? value : value == null ? '' : String(value);
  // Most names are short printable ASCII, which every step below leaves as it is; this
  // check makes core several times faster at 100,000 results.
  if (text.length <= MAX_NAME_LENGTH && PLAIN_ASCII.test(text) && text.trim() !== '') return text;
  return cutWithMark(cleanName(text), MAX_NAME_LENGTH);
}

/** toName without the cut: what each title of a testCase becomes before they are joined. */
function cleanName(value: unknown): string {
  const text = typeof value === 'string' ? value : value == null ? '' : String(value);
  if (PLAIN_ASCII.test(text) && text.trim() !== '') return text;
  const clean = text
    .toWellFormed()
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return clean.trim() === '' ? EMPTY_NAME : clean;
}

/** `…#`: what comes between the start a cut text keeps and the mark of the whole text. */
export const CUT_MARKER = '…#';

/** How many hex digits of the whole text's SHA-256 a cut text ends with: 64 bits. */
export const MARK_HEX_DIGITS = 16;

/**
 * The one rule for text too long to keep, names and run labels alike
 * (docs/naming.md#names-too-long-to-keep): text of at most `max` code points is kept as it is;
 * longer text keeps its first `max - 18` code points, then `…#`, then the first 16 hex digits of
 * the SHA-256 of the whole text in UTF-8: `max` code points in all. Two texts that differ anywhere
 * stay two, and the same text is the same everywhere: the mark depends on nothing but the text. It
 * is cut between code points, never inside a surrogate pair. Changing this changes the identity of
 * every long name a service has stored, so it does not change.
 */
export function cutWithMark(text: string, max: number): string {
  // Each code point is one or two UTF-16 units: up to `max` units, it fits.
  if (text.length <= max) return text;
  const keep = max - CUT_MARKER.length - MARK_HEX_DIGITS;
  const keptEnd = afterCodePoints(text, keep);
  if (afterCodePoints(text, max - keep, keptEnd) === text.length) return text;
  const mark = sha256Hex(text).slice(0, MARK_HEX_DIGITS);
  return `${text.slice(0, keptEnd)}${CUT_MARKER}${mark}`;
}

/** The UTF-16 index after `count` code points of `text` from `start`, or text.length when it has fewer. */
function afterCodePoints(text: string, count: number, start = 0): number {
  let index = start;
  for (let n = 0; n < count && index < text.length; n++) {
    const unit = text.charCodeAt(index);
    const paired = unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length;
    const next = paired ? text.charCodeAt(index + 1) : 0;
    index += paired && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return index;
}

/**
 * A run's project, framework or tag as a service can store it (the local server refuses anything
 * else, docs/design/server-storage.md#what-a-write-may-hold): well formed (a lone surrogate becomes
 * U+FFFD, as in names), NUL a space, at most MAX_LABEL_LENGTH characters, cut as names are
 * (cutWithMark). Nothing else changes: a tag is matched as it is written.
 */
export function toLabel(value: string): string {
  return cutWithMark(value.toWellFormed().replaceAll('\u0000', ' '), MAX_LABEL_LENGTH);
}

/** The run as create-run sends it: every label through toLabel; a tag left blank is dropped, a blank project or framework shows as EMPTY_NAME. */
export function toRunPayload(run: RunPayload): RunPayload {
  const filled = (label: string) => {
    const clean = toLabel(label);
    return clean.trim() === '' ? EMPTY_NAME : clean;
  };
  return {
    project: filled(run.project),
    framework: filled(run.framework),
    tags: [...new Set(run.tags.map(toLabel).filter((tag) => tag.trim() !== ''))],
  };
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return (
    relative !== '' &&
    !relative.startsWith(`..${path.sep}`) &&
    relative !== '..' &&
    !path.isAbsolute(relative)
  );
}

/** The deepest folder that holds both paths. */
function commonAncestor(a: string, b: string): string {
  let dir = path.resolve(a);
  const target = path.resolve(b);
  while (dir !== target && !isInside(dir, target) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** The failed result of the run that stands for one error outside any test and file. */
export function runErrorResult(message: unknown): RawResult {
  return {
    testSuite: RUN_SUITE,
    testCase: toRunErrorCase(message),
    status: 'failed',
    duration: 0,
    failure: { errors: [message] },
  };
}
