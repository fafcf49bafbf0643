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
  watchVitest,
} from '@testrun/test-utils';
import { afterEach, beforeEach, expect, it, onTestFinished } from 'vitest';

// A real `vitest --watch` on a copy of the passing fixture; an edit to math.test.js makes
// Vitest rerun that file alone.
const WAITING = /Waiting for file changes/;
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
  const vitest = watchVitest({ cwd, env: reporterEnv(server) });
  onTestFinished(() => vitest.stop());

  await vitest.waitForOutput(WAITING);
  await vitest.rerunAfter(editMathTests, WAITING, 2);

  expect(testrunLines(vitest.output())).toEqual([
    'testrun: watch mode: results are not reported. Set the watch option to true to report a run per rerun.',
  ]);
  expect(server.server.requests).toEqual([]);
});

it('reports a run per rerun with watch: true', async () => {
  const env = reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify({ watch: true }) });
  const vitest = watchVitest({ cwd, env });
  onTestFinished(() => vitest.stop());

  await vitest.waitForOutput(SUMMARY);
  await vitest.waitForOutput(WAITING);
  await vitest.rerunAfter(editMathTests, SUMMARY, 2);

  const runs = server.server.store.runs().sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  expect(runs.map((run) => identities(server.server.store.results(run.id)))).toEqual([
    identities(PASSING_RESULTS),
    identities(PASSING_RESULTS.filter((result) => result.testSuite === 'math.test.js')),
  ]);
});
