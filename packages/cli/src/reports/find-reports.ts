import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

/** A report to upload: its absolute path and how messages name it. */
export interface ReportFile {
  path: string;
  shownAs: string;
}

export interface FoundReports {
  /** Each file once, in the order given; a glob's matches sorted. */
  files: ReportFile[];
  /** Globs that matched no file. */
  unmatched: string[];
}

/**
 * The files the command line names: a plain path is taken as it is (a missing one is
 * reported when it is read), a glob is expanded here, since CI steps often quote it
 * (`"reports/**\/*.xml"`) and no shell expands it then.
 */
export async function findReports(args: readonly string[], cwd: string): Promise<FoundReports> {
  const found = new Set<string>();
  const unmatched: string[] = [];
  for (const arg of args) {
    if (!isDynamicPattern(arg)) {
      found.add(path.resolve(cwd, arg));
      continue;
    }
    const matches = await glob(arg, { cwd, absolute: true, onlyFiles: true, expandDirectories: false });
    if (matches.length === 0) unmatched.push(arg);
    for (const match of matches.sort()) found.add(path.resolve(match));
  }
  const files = [...found].map((file) => ({ path: file, shownAs: shownAs(file, cwd) }));
  return { files, unmatched };
}

/** Relative to where the command runs, as the user typed it, unless the file is elsewhere. */
function shownAs(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
