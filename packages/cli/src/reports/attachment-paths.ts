import fs from 'node:fs';
import path from 'node:path';
import type { RawAttachment } from '@testrun/core';

// The files a report names for a test (JUnit's `[[ATTACHMENT|path]]`, CTRF's `attachments`),
// as core takes them: absolute paths on this machine. A relative path is looked for from where
// `testrun upload` runs (a CI job's checkout), then beside the report. A path that is not
// here (written on another machine, removed since) is still handed over: core says in one
// line that the file is gone, and the result is sent without it (docs/attachments.md).

export function attachmentFile(written: string, reportDir: string, cwd: string): string {
  if (path.isAbsolute(written)) return written;
  const fromCwd = path.resolve(cwd, written);
  if (fs.existsSync(fromCwd)) return fromCwd;
  return path.resolve(reportDir, written);
}

/** Each named file as an attachment, named by its file name. */
export function namedFiles(
  files: readonly { path: string; name?: string | undefined; contentType?: string | undefined }[],
  reportDir: string,
  cwd: string = process.cwd(),
): RawAttachment[] | undefined {
  if (files.length === 0) return undefined;
  return files.map((file) => {
    const absolute = attachmentFile(file.path, reportDir, cwd);
    return { name: file.name || path.basename(absolute), contentType: file.contentType, path: absolute };
  });
}
