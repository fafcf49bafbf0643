import { runnerVersion, startDir } from '@testrun/core';

/**
 * The version of the WebdriverIO that runs this worker: the `webdriverio` package as the
 * project resolves it from the directory the run started in (else as this package does),
 * else 'unknown'.
 */
export function webdriverioVersion(): string {
  return runnerVersion('webdriverio', [startDir, import.meta.url]);
}
