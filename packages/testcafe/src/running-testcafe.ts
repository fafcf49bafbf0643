import { createRequire } from 'node:module';
import path from 'node:path';
import { startDir } from '@testrun/core';

/** The version of the TestCafe the project runs, as resolved from where the run started (else as this package does), else 'unknown'. */
export function testcafeVersion(): string {
  for (const from of [path.join(startDir, 'package.json'), import.meta.url]) {
    try {
      const manifest = createRequire(from)('testcafe/package.json') as { version?: unknown };
      if (typeof manifest.version === 'string') return manifest.version;
    } catch {}
  }
  return 'unknown';
}
