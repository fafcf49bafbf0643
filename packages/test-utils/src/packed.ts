import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './environment.js';
import { type RunOutcome, runProcess } from './process.js';

// What a user gets from the registry: each package packed the way `pnpm release` publishes it,
// for npm to install into a project outside the workspace (compat/packed/, and
// compat/installing-into-projects.test.ts, which installs them into real-shaped projects).

/** Every published package, by its folder under packages/. */
export const PUBLISHED_PACKAGES = [
  'core',
  'vitest',
  'jest',
  'playwright',
  'mocha',
  'node-test',
  'cucumber',
  'jasmine',
  'webdriverio',
  'newman',
  'testcafe',
  'server',
  'cli',
] as const;
export type PackageDir = (typeof PUBLISHED_PACKAGES)[number];

export const PACKAGES_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** Reused between runs so that only the first npm install downloads anything. */
export const NPM_CACHE = path.join(os.tmpdir(), 'testrun-npm-cache');

/** A package's name: `@testrun/<dir>`, but for Newman, which loads `-r @testrun/testrun` as `@testrun/newman-reporter-testrun`. */
export function packageName(dir: PackageDir): string {
  return dir === 'newman' ? '@testrun/newman-reporter-testrun' : `@testrun/${dir}`;
}

/**
 * Packs `dirs` (every published package by default) into `destination` with one pnpm, as
 * `pnpm release` packs them (a pnpm each cost ~0.5 s), and answers each package's tarball.
 * Needs `pnpm build` first.
 */
export async function packTarballs(
  destination: string,
  dirs: readonly PackageDir[] = PUBLISHED_PACKAGES,
): Promise<Record<PackageDir, string>> {
  fs.mkdirSync(destination, { recursive: true });
  const filters = dirs.flatMap((dir) => ['--filter', `./packages/${dir}`]);
  succeeded(
    await runProcess('pnpm', ['-r', ...filters, 'pack', '--pack-destination', destination], {
      cwd: path.dirname(PACKAGES_DIR.replace(/\/$/, '')),
    }),
    'pnpm -r pack',
  );
  const packed = fs.readdirSync(destination).filter((name) => name.endsWith('.tgz'));
  const tarballs = {} as Record<PackageDir, string>;
  for (const dir of dirs) {
    const own = packed.filter((name) => name.startsWith(`testrun-${dir}-`));
    if (own.length !== 1) throw new Error(`pnpm -r pack made ${own.length} tarballs of packages/${dir}`);
    tarballs[dir] = path.join(destination, own[0]!);
  }
  return tarballs;
}

/**
 * The clean child environment of the test helpers, minus the npm and pnpm settings that
 * `pnpm vitest` passes down (they would configure the project's npm), plus the shared cache.
 */
export function npmEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv(extra);
  for (const name of Object.keys(env)) {
    if (/^(npm|pnpm)_/i.test(name)) delete env[name];
  }
  env.npm_config_cache = NPM_CACHE;
  env.npm_config_update_notifier = 'false';
  return env;
}

/** Writes each file (a path under `root`) with its content, making its folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** JSON as a file holds it: indented, with a final newline. */
export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The outcome, or an error with its output when the command exited non-zero. */
export function succeeded(outcome: RunOutcome, what: string): RunOutcome {
  if (outcome.code !== 0) {
    throw new Error(`${what} exited ${outcome.code}\n${outcome.stdout}\n${outcome.stderr}`);
  }
  return outcome;
}
