import { createRequire } from 'node:module';
import path from 'node:path';
import { runnerVersion } from '@testrun/core';

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
  return loaded ? runnerVersion('jasmine-core', [loaded]) : 'unknown';
}
