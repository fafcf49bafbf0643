import fs from 'node:fs';
import path from 'node:path';

// Paths as reports write them, made into paths of this checkout. A report may come from
// another machine (a Windows agent, a container, another CI job), so a path in it may be
// absolute somewhere else: it is never kept absolute, and the part that names the
// checkout's location is cut off, so a test keeps its name from run to run. docs/junit.md,
// "Paths", says the same for users.

/**
 * Folders CI services and containers check a repository out into. A foreign absolute path
 * is taken from below the last of these it contains. Each is matched against the path with
 * `/` separators; those that could be an ordinary folder of a project only at the start.
 */
const CHECKOUT_ROOTS: readonly RegExp[] = [
  // GitHub Actions: /home/runner/work/<repo>/<repo>/, self-hosted …/_work/<repo>/<repo>/.
  /\/_?work\/([^/]+)\/\1\//,
  // GitHub Actions on Windows: D:\a\<repo>\<repo>\.
  /^[A-Za-z]:\/a\/([^/]+)\/\1\//,
  // Azure Pipelines: /home/vsts/work/1/s/, D:\a\1\s\.
  /\/(?:_?work|a)\/\d+\/s\//,
  // Jenkins: /var/lib/jenkins/workspace/<job>/, /home/jenkins/agent/workspace/<job>/, C:\Jenkins\workspace\<job>\.
  /\/jenkins[^/]*\/(?:[^/]+\/)*?workspace\/[^/]+\//i,
  // TeamCity: C:\BuildAgent\work\<hash>\.
  /\/BuildAgent\/work\/[0-9a-f]+\//i,
  // Buildkite: /var/lib/buildkite-agent/builds/<agent>/<org>/<pipeline>/.
  /\/buildkite-agent\/builds\/[^/]+\/[^/]+\/[^/]+\//,
  // Travis CI, CircleCI, Bitbucket Pipelines, Drone.
  /^\/home\/travis\/build\/[^/]+\/[^/]+\//,
  /^\/(?:home\/circleci|root)\/project\//,
  /^\/opt\/atlassian\/pipelines\/agent\/build\//,
  /^\/drone\/src\//,
  // The usual working directories of test containers.
  /^\/(?:app|code|src|workspace|usr\/src\/app)\//,
];

/** `\` as `/`: a report written on Windows separates folders with backslashes. */
export function toSlashes(written: string): string {
  return written.replace(/\\/g, '/');
}

/** Absolute on some machine: `/x`, `C:/x`, `//server/share/x` (after toSlashes). */
export function isAbsoluteAnywhere(slashed: string): boolean {
  return slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed);
}

/**
 * An absolute path from another machine (after toSlashes), made relative to the
 * repository's root: below the last folder named like the repository (`repoName`), else
 * below the last well-known checkout folder, else below its root (`/`, `C:/`, `//server/share/`).
 */
export function belowForeignRoot(slashed: string, repoName: string): string {
  const segments = slashed.split('/');
  // The last folder named like the repository, not the file itself.
  for (let i = segments.length - 2; i >= 0; i--) {
    if (segments[i] === repoName && repoName !== '') return segments.slice(i + 1).join('/');
  }
  let end = -1;
  for (const root of CHECKOUT_ROOTS) {
    const match = root.exec(slashed);
    if (match) end = Math.max(end, match.index + match[0].length);
  }
  if (end >= 0) return slashed.slice(end);
  return slashed.replace(/^(?:\/\/[^/]+\/[^/]+\/|[A-Za-z]:\/|\/+)/, '');
}

/** The nearest folder at or above `dir` that holds `.git`; else `dir`. */
export function findRepositoryRoot(dir: string): string {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (fs.existsSync(path.join(current, '.git'))) return current;
    if (path.dirname(current) === current) return path.resolve(dir);
  }
}

/** Turns the paths of reports read in `cwd` into paths core can name. */
export class ReportPaths {
  private readonly repoName: string;

  constructor(
    /** Where the upload runs, which is where the tests ran: relative paths are taken from here. */
    private readonly cwd: string,
    /** The checkout's root: a foreign path is taken from here. */
    private readonly repoRoot: string = findRepositoryRoot(cwd),
  ) {
    this.repoName = path.basename(repoRoot);
  }

  /**
   * A `file` attribute as an absolute path of this machine: a relative one from the
   * current directory; an absolute one inside this checkout as it is; any other absolute
   * one (another machine's, a container's) below its foreign root, from the checkout's root.
   */
  local(written: string): string {
    const slashed = toSlashes(written);
    if (!isAbsoluteAnywhere(slashed)) return path.resolve(this.cwd, slashed);
    if (path.isAbsolute(slashed) && (isWithin(this.repoRoot, slashed) || isWithin(this.cwd, slashed))) {
      return path.resolve(slashed);
    }
    return path.join(this.repoRoot, belowForeignRoot(slashed, this.repoName));
  }

  /** A classname or name that is a path, as a name: `/` separators, never absolute. */
  name(written: string): string {
    const slashed = toSlashes(written);
    return isAbsoluteAnywhere(slashed) ? belowForeignRoot(slashed, this.repoName) : slashed;
  }
}

function isWithin(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative);
}
