import { createHash } from 'node:crypto';

/**
 * The id of a failed test's row on its run's page: `test-` and the first 12 hex digits of
 * SHA-256 over its suite, a line feed and its name; `-2`, `-3` for a second and third test of
 * the same names in the run. A CI summary links each failed test to it (core's
 * summary/test-anchor.ts writes the same rule: this server depends on nothing of ours), and
 * it stays the same for the test whatever page, filter or run it is shown in.
 */
export function testAnchor(testSuite: string, testCase: string, occurrence = 1): string {
  const digest = createHash('sha256').update(`${testSuite}\n${testCase}`).digest('hex').slice(0, 12);
  return occurrence > 1 ? `test-${digest}-${occurrence}` : `test-${digest}`;
}
