import { runnerVersion } from '@testrun/core';

/** The Jest versions the reporter supports, as the package's peerDependencies say (no upper bound:
 * docs/design/installing.md). */
export const SUPPORTED_JEST_RANGE = '>=29.7.0';

/**
 * The version of the Jest that runs the project. Reporters get no handle on Jest itself,
 * so it is read from the `jest` package the project resolves.
 */
export function jestVersion(rootDir: string): string {
  return runnerVersion('jest', [rootDir]);
}

/**
 * Whether `version` is older than the supported range (29.7), whose reporter hooks differ.
 * An unknown version, or a newer major, gets the benefit of the doubt.
 */
export function isOlderThanSupported(version: string): boolean {
  const match = /^(\d+)\.(\d+)\./.exec(version);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major < 29 || (major === 29 && minor < 7);
}
