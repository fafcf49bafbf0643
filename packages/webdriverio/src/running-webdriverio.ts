import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startDir } from '@testrun/core';

/**
 * The version of the WebdriverIO that runs this worker: the `webdriverio` package as the
 * project resolves it from the directory the run started in (else as this package does),
 * read from the package.json above its entry (its exports map hides package.json), else 'unknown'.
 */
export function webdriverioVersion(): string {
  for (const from of [path.join(startDir, 'package.json'), import.meta.url]) {
    try {
      let dir = path.dirname(createRequire(from).resolve('webdriverio'));
      for (let depth = 0; depth < 5; depth++, dir = path.dirname(dir)) {
        const file = path.join(dir, 'package.json');
        if (!fs.existsSync(file)) continue;
        const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
        if (manifest.name === 'webdriverio' && typeof manifest.version === 'string') return manifest.version;
      }
    } catch {}
  }
  return 'unknown';
}
