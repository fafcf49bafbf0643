import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The version of the jasmine-core this process runs (the engine that sends the events; the
 * `jasmine` runner shares its major and minor): the global `jasmine` in a process that runs
 * specs, else the jasmine-core already loaded (--parallel's main process), else 'unknown'.
 */
export function jasmineVersion(): string {
  const global = (globalThis as { jasmine?: { version?: unknown } }).jasmine?.version;
  if (typeof global === 'string') return global;
  const suffix = `${path.sep}jasmine-core${path.sep}lib${path.sep}jasmine-core.js`;
  const loaded = Object.keys(require.cache).find((file) => file.endsWith(suffix));
  if (!loaded) return 'unknown';
  try {
    const manifest = require(path.join(path.dirname(loaded), '..', 'package.json')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
