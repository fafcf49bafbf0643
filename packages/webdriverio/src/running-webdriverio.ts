import { createRequire } from 'node:module';
import path from 'node:path';
import { startDir } from '@testrun/core';

/**
 * The version of the WebdriverIO that runs this worker: the `webdriverio` package as the
 * runner resolves it from the working directory the run started in, else 'unknown'.
 */
export function webdriverioVersion(): string {
  for (const from of [path.join(startDir, 'package.json'), import.meta.url]) {
    try {
      const manifest = createRequire(from)('webdriverio/package.json') as { version?: unknown };
      if (typeof manifest.version === 'string') return manifest.version;
    } catch {}
  }
  return 'unknown';
}
