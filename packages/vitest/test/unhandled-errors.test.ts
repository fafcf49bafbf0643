import {
  fixtures,
  reporterEnv,
  runVitest,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';

// An error thrown outside any test fails a Vitest run without failing a test. It has no
// test to become a result of, so the summary line says it was left out.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(() => server?.close());

it('mentions unhandled errors in the summary and keeps the failing exit code', async () => {
  const [outcome, outcomeWithoutReporter] = await Promise.all([
    runVitest({ cwd: fixtures.unhandledError, env: reporterEnv(server) }),
    runVitest({ cwd: fixtures.unhandledError, withoutReporter: true }),
  ]);

  const [run] = server.server.store.runs();
  expect(server.server.store.results(run!.id)).toMatchObject([
    { testCase: 'passes but leaves an error behind', status: 'passed' },
  ]);
  expect(testrunLines(outcome.stderr)).toEqual([
    expect.stringMatching(/^testrun: 1 result → run .*; 1 unhandled error, not counted as results$/),
  ]);
  expect([outcome.code, outcomeWithoutReporter.code]).toEqual([1, 1]);
});
