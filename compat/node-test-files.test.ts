import {
  identities,
  NODE_TEST_FILES_RESULTS,
  nodeTestFixtures,
  reporterEnv,
  resultsOfFramework,
  runNodeTest,
  startTestServer,
} from '@testrun/test-utils';
import { expect, it } from 'vitest';

// node:test reports each file it runs as a test of its own: one that declares no test passes,
// one that fails outside its tests (does not parse, exits non-zero) fails. And a subtest's
// `file` is where t.test() was called. The version matrix holds Node 22 and 24 to the same list.
it('names files without tests, files failing outside their tests and subtests from helpers as on every Node', async () => {
  const server = await startTestServer();
  const [outcome, alone] = await Promise.all([
    runNodeTest({ cwd: nodeTestFixtures.files, env: reporterEnv(server) }),
    runNodeTest({ cwd: nodeTestFixtures.files, withoutReporter: true }),
  ]);
  const stored = await resultsOfFramework(server, 'node-test');
  expect(identities(stored), outcome.stderr).toEqual(identities(NODE_TEST_FILES_RESULTS));
  expect([outcome.code, alone.code]).toEqual([1, 1]);
  // Why each file failed: what its process printed (the syntax error, at its line), else its exit code.
  const why = (file: string) =>
    stored.find((result) => result.testSuite === file && result.status === 'failed')?.details;
  expect(why('test/syntax-error.test.js')).toMatchObject({
    message: expect.stringMatching(/^SyntaxError: /),
    location: expect.stringMatching(/^test\/syntax-error\.test\.js:\d+$/),
  });
  expect(why('test/exits-non-zero.test.js')?.message).toBe('test failed: its process exited with code 3');
});
