import { runnerVersion, startDir } from '@testrun/core';

/** The version of the TestCafe the project runs, as resolved from where the run started (else as this package does), else 'unknown'. */
export function testcafeVersion(): string {
  return runnerVersion('testcafe', [startDir, import.meta.url]);
}
