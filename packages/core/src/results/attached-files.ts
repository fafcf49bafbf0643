import type { AttachmentsMode, RawAttachment, RawResult, TestResult } from '../types.js';

// Which of a result's attached files go with it, and how they travel from the results stage
// to delivery: beside the result, never in its JSON (a symbol key is not serialized), so a
// run without files pays nothing for them (docs/design/attachments.md).

const FILES = Symbol.for('testrun.attachedFiles');

type WithFiles = TestResult & { [FILES]?: readonly RawAttachment[] };

/** The files `raw` attached that the option wants sent with it: `'failed'` keeps a failed test's and a pass on a retry's. */
export function wantedFiles(raw: RawResult, mode: AttachmentsMode): readonly RawAttachment[] | undefined {
  const files = raw.attachments;
  if (mode === 'none' || !Array.isArray(files) || files.length === 0) return undefined;
  if (mode === 'all') return files;
  const retried = typeof raw.attempts === 'number' && raw.attempts > 1;
  return raw.status === 'failed' || (raw.status === 'passed' && retried) ? files : undefined;
}

/** `result` with `files` beside it. */
export function withFiles(result: TestResult, files: readonly RawAttachment[]): TestResult {
  Object.defineProperty(result, FILES, { value: files, enumerable: false, configurable: true });
  return result;
}

/** The files beside a result, if it has any. */
export function filesOf(result: TestResult): readonly RawAttachment[] | undefined {
  return (result as WithFiles)[FILES];
}
