import path from 'node:path';
import type { FullConfig, FullProject, TestError, WorkerInfo } from '@playwright/test/reporter';
import { minimatch } from 'minimatch';

/** Where an error Playwright reports outside any test belongs. */
export type ErrorOrigin =
  /** A test file: it failed to load, or its worker failed outside a test. One entry per project that runs it. */
  | { kind: 'file'; file: string; projects: FullProject[] }
  /** No test file: globalSetup, a web server, a crashed worker, the global timeout. */
  | { kind: 'run'; message: string }
  /** Not an error of its own: --max-failures stopping the run, which failed tests already show. */
  | { kind: 'ignored' };

const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;
const STOPPED_BY_MAX_FAILURES = /^Testing stopped early after \d+ maximum allowed failures/;

export function errorOrigin(
  error: TestError,
  workerInfo: WorkerInfo | undefined,
  config: FullConfig,
): ErrorOrigin {
  const message = plain(error.message ?? error.value ?? error.stack ?? '');
  if (STOPPED_BY_MAX_FAILURES.test(message)) return { kind: 'ignored' };
  const file = error.location?.file;
  if (file) {
    // A worker's error belongs to its project; a load error (no worker) to every project that runs the file.
    const candidates = workerInfo ? [workerInfo.project] : (config.filteredProjects ?? config.projects);
    const projects = candidates.filter((project) => runsFile(project, file));
    if (projects.length > 0) return { kind: 'file', file, projects };
  }
  return { kind: 'run', message };
}

/** Playwright colours some of its messages for the terminal; a result's name has no use for that. */
function plain(text: string): string {
  return text.replace(ANSI_COLOUR, '');
}

/** Whether `project` runs `file` as a test file: under its testDir, matched by testMatch, not by testIgnore. */
export function runsFile(project: FullProject, file: string): boolean {
  const relative = path.relative(project.testDir, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
  return matchesAny(project.testMatch, file) && !matchesAny(project.testIgnore, file);
}

/** Playwright's own rule: a RegExp is tested on the absolute path, a glob matches it as `**\/glob`. */
function matchesAny(patterns: string | RegExp | readonly (string | RegExp)[], file: string): boolean {
  const list = Array.isArray(patterns) ? patterns : [patterns];
  const unixPath = file.split(path.sep).join('/');
  return list.some((pattern) => {
    if (typeof pattern !== 'string') {
      pattern.lastIndex = 0;
      if (pattern.test(file)) return true;
      pattern.lastIndex = 0;
      return pattern.test(unixPath);
    }
    const glob = pattern.startsWith('**/') ? pattern : `**/${pattern}`;
    return minimatch(unixPath, glob, { nocase: true, dot: true });
  });
}
