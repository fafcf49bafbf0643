import { createHash } from 'node:crypto';

/**
 * The fragment that names a failed test on its run's page, `test-` and the first 12 hex
 * digits of SHA-256 over its suite, a line feed and its name: stable for the test, and short
 * and inert whatever its names hold. The local server's run page gives each row of its failed
 * tests this id (packages/server/src/pages/test-anchor.ts, the same rule written again: the
 * server depends on nothing of ours); a second test of the same names in one run is
 * `…-2`, then `-3`. A page without such ids opens at its top.
 */
export function testAnchor(testSuite: string, testCase: string, occurrence = 1): string {
  const digest = createHash('sha256').update(`${testSuite}\n${testCase}`).digest('hex').slice(0, 12);
  return occurrence > 1 ? `test-${digest}-${occurrence}` : `test-${digest}`;
}
