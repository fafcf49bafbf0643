import path from 'node:path';
import {
  CLI_BIN,
  type CollectionServer,
  cleanEnv,
  FIXTURES_DIR,
  frameworkBin,
  jasmineBin,
  reporterEnv,
  runLimiter,
  runProcess,
  runTestCafeCommand,
  startCollectionServer,
  startTestServer,
  TESTCAFE_ATTEMPT_TIMEOUT_MS,
  TESTCAFE_CHROMIUM,
  TESTCAFE_RUN_TIMEOUT_MS,
  type TestServer,
  testcafeBrowserMissing,
  untilTestCafeOpensItsBrowsers,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/quarantine.md's table, for the runners pnpm test does not run quarantined (it runs
// Vitest, Jest, Playwright, Mocha and node:test so, from the packed packages): Jasmine,
// Cucumber, Newman and TestCafe fail a build of quarantined failures alone by themselves, and
// under `testrun run` it passes, its run completed and the failure stored failed, marked.
// WebdriverIO's keeps its exit code under testrun run, saying why (its adapter never vouches:
// packages/webdriverio/src/reporter.ts).

const DIR = path.join(FIXTURES_DIR, 'quarantine');
const QUARANTINED = 'Math > fails on purpose';
const limited = runLimiter();

let collectionServer: CollectionServer;
beforeAll(async () => {
  collectionServer = await startCollectionServer();
});
afterAll(() => collectionServer?.close());

interface Runner {
  name: string;
  /** The fixture's folder under fixtures/quarantine. */
  dir: string;
  /** The test file as stored (Newman: the collection's name). */
  suite: string;
  /** Program and arguments, the runner's own script run by Node. */
  command: () => string[];
  /** Its exit code for a failed test, alone. */
  failedExitCode: number;
  browser?: boolean;
}

const RUNNERS: Runner[] = [
  {
    name: 'jasmine',
    dir: 'jasmine',
    suite: 'spec/math.spec.js',
    command: () => [process.execPath, jasmineBin()],
    failedExitCode: 3,
  },
  {
    name: 'cucumber',
    dir: 'cucumber',
    suite: 'features/math.feature',
    command: () => [process.execPath, frameworkBin('@cucumber/cucumber', undefined, 'cucumber-js')],
    failedExitCode: 1,
  },
  {
    name: 'newman',
    dir: 'newman',
    suite: 'math',
    command: () => [
      process.execPath,
      frameworkBin('newman'),
      'run',
      'math.postman_collection.json',
      '-r',
      'cli,@testrun/testrun',
      '--env-var',
      `baseUrl=${collectionServer.url}`,
    ],
    failedExitCode: 1,
  },
  {
    name: 'testcafe',
    dir: 'testcafe',
    suite: 'tests/math.test.js',
    command: () => [
      process.execPath,
      frameworkBin('testcafe'),
      TESTCAFE_CHROMIUM,
      'tests/',
      '-r',
      'spec,testrun',
    ],
    failedExitCode: 1,
    browser: true,
  },
];

const browserMissing = testcafeBrowserMissing();
if (browserMissing) console.warn(`skipping TestCafe: ${browserMissing}`);
const RUNNABLE = RUNNERS.filter((runner) => !(runner.browser && browserMissing));

async function quarantine(server: TestServer, suite: string): Promise<void> {
  const answer = await fetch(`${server.url}/api/v1/quarantines`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: 'q', testSuite: suite, testCase: QUARANTINED, reason: 'flaky' }),
  });
  expect(answer.status, await answer.text()).toBe(201);
}

/** The runner in its fixture, under `testrun run` or alone (reporting into a run of its own). */
function run(runner: Runner, server: TestServer, underTestrunRun: boolean) {
  const [program, ...args] = runner.command();
  const wrap = underTestrunRun ? [process.execPath, CLI_BIN, 'run', '--project', 'q', '--'] : [];
  // A hung TestCafe run is an outcome, for untilTestCafeOpensItsBrowsers to try again.
  const runCommand = runner.browser ? runTestCafeCommand : runProcess;
  return limited(() =>
    runCommand(wrap[0] ?? program!, [...wrap.slice(1), ...(underTestrunRun ? [program!] : []), ...args], {
      cwd: path.join(DIR, runner.dir),
      env: cleanEnv(reporterEnv(server, { TESTRUN_PROJECT: 'q', TESTRUN_SUMMARY: '0' })),
      timeoutMs: TESTCAFE_ATTEMPT_TIMEOUT_MS,
    }),
  );
}

describe.concurrent('a build whose only failure is a quarantined test', () => {
  it.each(RUNNABLE)(
    '$name: passes under testrun run, and fails alone, saying why',
    async (runner) => {
      // TestCafe's two runs go one after the other, and again with a fresh server when a loaded
      // machine kept Chromium from opening (untilTestCafeOpensItsBrowsers): each is a run of its own.
      const attempt = async () => {
        const server = await startTestServer();
        await quarantine(server, runner.suite);
        const [under, alone] = runner.browser
          ? [await run(runner, server, true), await run(runner, server, false)]
          : await Promise.all([run(runner, server, true), run(runner, server, false)]);
        const outcome = {
          ...alone,
          stdout: under.stdout + alone.stdout,
          stderr: under.stderr + alone.stderr,
        };
        return { server, under, alone, outcome };
      };
      const { server, under, alone } = runner.browser
        ? await untilTestCafeOpensItsBrowsers(attempt)
        : await attempt();
      try {
        const underOutput = under.stdout + under.stderr;
        const aloneOutput = alone.stdout + alone.stderr;

        expect(under.code, underOutput).toBe(0);
        expect(underOutput).toContain(
          `testrun run: passed: 1 quarantined test failed (${runner.suite} › ${QUARANTINED})`,
        );
        expect(alone.code, aloneOutput).toBe(runner.failedExitCode);
        expect(aloneOutput).toContain(
          `testrun: 1 quarantined test failed (${runner.suite} › ${QUARANTINED}); ${runner.name} fails the build for them all the same: run it under testrun run to pass it`,
        );

        const runs = await server.server.store.runs();
        expect(runs).toHaveLength(2);
        for (const stored of runs) {
          const failed = (await server.server.store.results(stored.id)).filter(
            (result) => result.status === 'failed',
          );
          expect(failed, `${underOutput}\n${aloneOutput}`).toMatchObject([
            { testSuite: runner.suite, testCase: QUARANTINED, quarantined: true },
          ]);
        }
        const ends = await Promise.all(runs.map((stored) => server.server.store.endOf(stored.id)));
        expect(ends.map((end) => end?.status).sort()).toEqual(['completed', 'failed']);
      } finally {
        await server.close();
      }
    },
    TESTCAFE_RUN_TIMEOUT_MS,
  );
});
