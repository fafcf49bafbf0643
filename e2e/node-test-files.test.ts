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
  expect(identities(await resultsOfFramework(server, 'node-test')), outcome.stderr).toEqual(
    identities(NODE_TEST_FILES_RESULTS),
  );
  expect([outcome.code, alone.code]).toEqual([1, 1]);
});
