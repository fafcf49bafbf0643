import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The version of the Jest that runs the project. Reporters get no handle on Jest itself,
 * so it is read from the `jest` package the project resolves.
 */
export function jestVersion(rootDir: string): string {
  try {
    const require = createRequire(path.join(rootDir, 'package.json'));
    const { version } = require('jest/package.json') as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
