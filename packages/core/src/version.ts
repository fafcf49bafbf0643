import fs from 'node:fs';

/** This package's version, for the User-Agent header. */
export const CORE_VERSION: string = readVersion();

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
