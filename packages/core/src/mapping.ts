import path from 'node:path';
import { EMPTY_NAME } from './normalize.js';

/** testCase of the one failed result that stands for a file that could not run. */
export const FILE_FAILURE_CASE = '(file failed to run)';

/** Separator between describe titles and the test's title in `testCase`. */
export const TITLE_SEPARATOR = ' > ';

/** A test file's path relative to the project root, with `/` separators on every OS. */
export function toTestSuite(rootDir: string, file: string): string {
  const relative = path.relative(rootDir, file);
  const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  return (inside ? relative : file).split(path.sep).join('/');
}

/** The describe chain and the test's own title, joined with ` > `; an empty title shows as `(unnamed)`. */
export function toTestCase(titles: readonly string[]): string {
  return titles.map((title) => (title.trim() === '' ? EMPTY_NAME : title)).join(TITLE_SEPARATOR);
}
