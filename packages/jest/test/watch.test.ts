import fs from 'node:fs';
import path from 'node:path';
import {
  copyFixture,
  fixtures,
  identities,
  PASSING_RESULTS,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  startTestServer,
  type TestServer,
  testrunLines,
  watchJest,
} from '@testrun/test-utils';
import { afterEach, beforeEach, expect, it, onTestFinished } from 'vitest';

// A real `jest --watchAll` (no TTY, no git needed) on a copy of the passing fixture; an
// edit to math.test.js makes Jest rerun every file. Jest builds its reporters anew for
// each rerun, so these tests also hold the adapter to one notice per process.
const FINISHED = /^Ran all test suites\./m;
const SUMMARY = /^testrun: \d+ results? → run /m;

let server: TestServer;
let cwd: string;

beforeEach(async () => {
  server = await startTestServer();
  cwd = copyFixture(fixtures.passing);
});

afterEach(async () => {
  await server.close();
  fs.rmSync(cwd, { recursive: true, force: true });
});

const editMathTests = () => fs.appendFileSync(path.join(cwd, 'math.test.js'), '\n// edited by the test\n');

it('reports nothing in watch mode, and says so once across reruns', async () => {
  const jest = watchJest({ cwd, env: reporterEnv(server) });
  onTestFinished(() => jest.stop());

  await jest.waitForOutput(FINISHED);
  await jest.rerunAfter(editMathTests, FINISHED, 2);

  expect(testrunLines(jest.output())).toEqual([
    'testrun: watch mode: results are not reported. Set the watch option to true to report a run per rerun.',
  ]);
  expect(server.server.requests).toEqual([]);
});

it('reports a run per rerun with watch: true', async () => {
  const env = reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify({ watch: true }) });
  const jest = watchJest({ cwd, env });
  onTestFinished(() => jest.stop());

  await jest.waitForOutput(FINISHED);
  await jest.rerunAfter(editMathTests, SUMMARY, 2);

  const runs = server.server.store.runs().sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  expect(runs.map((run) => identities(server.server.store.results(run.id)))).toEqual([
    identities(PASSING_RESULTS),
    identities(PASSING_RESULTS),
  ]);
});
