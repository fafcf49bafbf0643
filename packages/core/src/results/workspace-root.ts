import fs from 'node:fs';
import path from 'node:path';

/**
 * The root of the workspace (a monorepo of npm, yarn, pnpm, bun or lerna packages) that the
 * package holding `dir` belongs to; undefined when that package is the root itself or no
 * package of a workspace. Test files are named from it (result-name.ts), so a package's file
 * has one name whether the package's own config ran it or the root's, and two packages'
 * `src/index.test.ts` never share one, in a run they share or apart.
 *
 * Read from the manifests, which travel with the sources, not from `.git`, which a Docker
 * build or a source archive leaves behind: a file must keep its name on every machine.
 */
export function workspaceRootOf(dir: string): string | undefined {
  const key = path.resolve(dir);
  if (!cache.has(key)) cache.set(key, findWorkspaceRoot(key));
  return cache.get(key);
}

const cache = new Map<string, string | undefined>();

function findWorkspaceRoot(dir: string): string | undefined {
  const pkg = nearest(dir, (candidate) => fs.existsSync(path.join(candidate, 'package.json')));
  if (!pkg) return undefined;
  for (let root = path.dirname(pkg); ; root = path.dirname(root)) {
    const patterns = workspacePatterns(root);
    if (patterns) return isMember(path.relative(root, pkg), patterns) ? root : undefined;
    if (path.dirname(root) === root) return undefined;
  }
}

function nearest(dir: string, holds: (candidate: string) => boolean): string | undefined {
  for (let candidate = dir; ; candidate = path.dirname(candidate)) {
    if (holds(candidate)) return candidate;
    if (path.dirname(candidate) === candidate) return undefined;
  }
}

/** The package globs a workspace root lists, or undefined when `dir` is no workspace root. */
function workspacePatterns(dir: string): string[] | undefined {
  const pnpm = read(path.join(dir, 'pnpm-workspace.yaml'));
  if (pnpm !== undefined) return pnpmPackages(pnpm);
  const manifest = readJson(path.join(dir, 'package.json'));
  const workspaces = manifest?.workspaces;
  if (Array.isArray(workspaces)) return workspaces.filter(isString);
  const nested = (workspaces as { packages?: unknown } | undefined)?.packages;
  if (Array.isArray(nested)) return nested.filter(isString);
  const lerna = readJson(path.join(dir, 'lerna.json'));
  if (lerna) return Array.isArray(lerna.packages) ? lerna.packages.filter(isString) : ['packages/*'];
  return undefined;
}

/** The `packages:` list of a pnpm-workspace.yaml, block or flow style; the rest of the file is not read. */
function pnpmPackages(yaml: string): string[] {
  const lines = yaml.split(/\r?\n/);
  const start = lines.findIndex((line) => /^packages\s*:/.test(line));
  if (start === -1) return [];
  const inline = /^packages\s*:\s*\[(.*)\]/.exec(lines[start]!);
  if (inline) return inline[1]!.split(',').map(unquote).filter(Boolean);
  const patterns: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const item = /^\s+-\s+(.+?)\s*(?:#.*)?$/.exec(line);
    if (item) patterns.push(unquote(item[1]!));
  }
  return patterns;
}

/** Whether the package at `relative` (from the workspace root) is one a pattern lists and none excludes. */
function isMember(relative: string, patterns: readonly string[]): boolean {
  const at = relative.split(path.sep).join('/');
  if (at === '' || at.startsWith('..')) return false;
  const matches = (pattern: string) => globToRegExp(pattern).test(at);
  const included = patterns.filter((pattern) => !pattern.startsWith('!')).some(matches);
  const excluded = patterns.filter((pattern) => pattern.startsWith('!')).some((p) => matches(p.slice(1)));
  return included && !excluded;
}

/** A workspace glob (`packages/*`, `apps/**`, `tools/{a,b}`) as a regular expression for a whole path. */
function globToRegExp(glob: string): RegExp {
  const pattern = glob.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  let source = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const character = pattern[i]!;
    if (character === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i += 1;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else if (character === '{') {
      braces += 1;
      source += '(?:';
    } else if (character === '}' && braces > 0) {
      braces -= 1;
      source += ')';
    } else if (character === ',' && braces > 0) source += '|';
    else source += character.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readJson(file: string): Record<string, unknown> | undefined {
  const text = read(file);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function unquote(text: string): string {
  return text.trim().replace(/^(['"])(.*)\1$/, '$2');
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
