import { createHash } from 'node:crypto';

/**
 * A test's key in a service's quarantine list: the hex SHA-256 of the JSON array
 * [testSuite, testCase] (UTF-8), the names as sent. The service lists keys, not names: a list
 * of a thousand tests stays small whatever their names, and a reporter matches only what it
 * sent (docs/design/quarantine.md).
 */
export function testKey(testSuite: string, testCase: string): string {
  return createHash('sha256')
    .update(JSON.stringify([testSuite, testCase]), 'utf8')
    .digest('hex');
}
