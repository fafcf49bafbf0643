import fs from 'node:fs';
import path from 'node:path';
import {
  copyFixture,
  fixtures,
  identities,
  legsHere,
  mochaFixtures,
  nodeTestFixtures,
  PASSING_RESULTS,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  startTestServer,
  type TestServer,
  testrunLines,
  watchJest,
  watchMocha,
  watchNodeTest,
  watchVitest,
} from '@testrun/test-utils';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';

// Real `vitest --watch`, `jest --watchAll`, `mocha --watch` and `node --test --watch`
// processes (no TTY, no git needed) on a copy of the passing fixture; an edit to
// math.test.js triggers a rerun. Jest and Mocha build their reporters anew for each rerun, so
// these tests also hold their adapters to one notice per process.
const WATCHERS = [
  {
    name: 'vitest',
    fixture: fixtures.passing,
    watch: watchVitest,
    idle: /Waiting for file changes/,
    // Vitest reruns only the file that changed.
    rerunResults: PASSING_RESULTS.filter((result) => result.testSuite === 'math.test.js'),
  },
  {
    name: 'jest',
    fixture: fixtures.passing,
    watch: watchJest,
    idle: /^Ran all test suites\./m,
    // --watchAll reruns every file.
    rerunResults: PASSING_RESULTS,
  },
  {
    name: 'mocha',
    fixture: mochaFixtures.passing,
    watch: watchMocha,
    idle: /waiting for changes/,
    // Mocha reruns every file.
    rerunResults: PASSING_RESULTS,
  },
  {
    name: 'node-test',
    fixture: nodeTestFixtures.passing,
    watch: watchNodeTest,
    idle: /ℹ duration_ms/,
    // node:test reruns the file that changed.
    rerunResults: PASSING_RESULTS.filter((result) => result.testSuite === 'math.test.js'),
  },
];
const SUMMARY = /^testrun: \d+ results? → run /m;

let server: TestServer;
let cwd: string;

beforeEach(async () => {
  server = await startTestServer();
});

afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

const editMathTests = () => fs.appendFileSync(path.join(cwd, 'math.test.js'), '\n// edited by the test\n');

describe.each(legsHere(WATCHERS, (watcher) => watcher.name))(
  '$name in watch mode',
  ({ fixture, watch, idle, rerunResults }) => {
    beforeEach(() => {
      cwd = copyFixture(fixture);
    });

    it('reports nothing, and says so once across reruns', async () => {
      const watcher = watch({ cwd, env: reporterEnv(server) });
      onTestFinished(() => watcher.stop());

      await watcher.waitForOutput(idle);
      await watcher.rerunAfter(editMathTests, idle, 2);

      expect(testrunLines(watcher.output())).toEqual([
        'testrun: watch mode: results are not reported. Set the watch option to true to report a run per rerun.',
      ]);
      expect(server.server.requests).toEqual([]);
    });

    it('reports a run per rerun with watch: true', async () => {
      const env = reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify({ watch: true }) });
      const watcher = watch({ cwd, env });
      onTestFinished(() => watcher.stop());

      await watcher.waitForOutput(SUMMARY);
      await watcher.waitForOutput(idle);
      await watcher.rerunAfter(editMathTests, SUMMARY, 2);

      const runs = (await server.server.store.runs()).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      expect(
        await Promise.all(runs.map(async (run) => identities(await server.server.store.results(run.id)))),
      ).toEqual([identities(PASSING_RESULTS), identities(rerunResults)]);
    });
  },
);
