import path from 'node:path';
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

/** Names longer than this are cut: services index these fields, and 10 KB titles exist. */
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

/** The describe chain and the test's own title, joined with ` > `; an empty title shows as `(unnamed)`. */
export function toTestCase(titles: readonly unknown[]): string {
  return titles.map(toName).join(TITLE_SEPARATOR);
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
 * Control characters (C0 such as NUL, newlines and tabs; DEL; C1) become spaces, text is NFC and well formed
 * (no lone surrogates), empty names get a visible placeholder and long ones are cut on a
 * code point boundary.
 */
export function toName(value: unknown): string {
  const text = typeof value === 'string' ? value : value == null ? '' : String(value);
  // Most names are short printable ASCII, which every step below leaves as it is; this
  // check makes core several times faster at 100,000 results.
  if (text.length <= MAX_NAME_LENGTH && PLAIN_ASCII.test(text) && text.trim() !== '') return text;
  const clean = text
    .toWellFormed()
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  if (clean.trim() === '') return EMPTY_NAME;
  const codePoints = Array.from(clean);
  return codePoints.length > MAX_NAME_LENGTH
    ? `${codePoints.slice(0, MAX_NAME_LENGTH - 1).join('')}…`
    : clean;
}

/**
 * A run's project, framework or tag as a service can store it (the local server refuses
 * anything else, docs/design.md §21): well formed (a lone surrogate becomes U+FFFD, as in
 * names), NUL a space, at most MAX_LABEL_LENGTH characters, cut on a code-point boundary.
 * Nothing else changes: a tag is matched as it is written.
 */
export function toLabel(value: string): string {
  const clean = value.toWellFormed().replaceAll('\u0000', ' ');
  if (clean.length <= MAX_LABEL_LENGTH) return clean;
  const codePoints = Array.from(clean);
  return codePoints.length > MAX_LABEL_LENGTH
    ? `${codePoints.slice(0, MAX_LABEL_LENGTH - 1).join('')}…`
    : clean;
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
