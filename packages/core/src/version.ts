import fs from 'node:fs';

/** The version, written into the bundle by scripts/bundle-core.mjs; absent when the sources run. */
declare const TESTRUN_CORE_VERSION: string | undefined;

/**
 * This package's version, for the User-Agent header. The bundle has it written in: reading
 * `import.meta` for the package.json beside it loads a module of Node's ES loader that a
 * Jest run otherwise never needs.
 */
export const CORE_VERSION: string =
  typeof TESTRUN_CORE_VERSION === 'string' ? TESTRUN_CORE_VERSION : readVersion();

function readVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** `testrun/<version> (<framework>/<version>; node/<version>)`, as
 * docs/design/http.md#headers-and-secrets says. */
export function userAgent(client: string): string {
  return `testrun/${CORE_VERSION} (${client}; node/${process.versions.node})`;
}
