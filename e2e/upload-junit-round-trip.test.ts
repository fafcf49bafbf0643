import fs from 'node:fs';
import path from 'node:path';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  CLI_BIN,
  cleanEnv,
  type ExpectedResult,
  fixtures,
  identities,
  PARITY_RESULTS,
  resultsOfFramework,
  runJest,
  runProcess,
  runVitest,
  startTestServer,
  type TestServer,
  tempDir,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlock } from '../test/doc-blocks.js';

// The JUnit XML that Vitest's own `junit` reporter and jest-junit write for the parity
// fixture, uploaded with `testrun upload`, stores what @testrun/vitest and @testrun/jest
// store for it (PARITY_RESULTS), except where JUnit cannot carry it. Those differences
// are written down here and in the README, and everything else is held exactly.

/**
 * jest-junit settings that keep describe blocks and files apart, as docs/junit.md recommends
 * them: the `NAME=value` assignments of its command line, read from the page.
 */
const JEST_JUNIT_ENV = Object.fromEntries(
  [...docBlock('junit-jest-junit-settings').matchAll(/\b(JEST_JUNIT_\w+)=(?:"([^"]*)"|(\S+))/g)].map(
    ([, name, quoted, bare]) => [name!, quoted ?? bare!],
  ),
);

/** `results` with the status of `testSuite`/`testCase` pairs changed, and `extra` added. */
function changed(
  results: readonly ExpectedResult[],
  statusOf: (result: ExpectedResult) => string,
  extra: ExpectedResult[] = [],
): ExpectedResult[] {
  return [...results.map((result) => ({ ...result, status: statusOf(result) })), ...extra];
}

const isIn = (result: ExpectedResult, testSuite: string, testCases: string[]) =>
  result.testSuite === testSuite && testCases.includes(result.testCase);

/**
 * What JUnit from Vitest carries: no todo (it is <skipped/>), and a failing beforeAll is a
 * failed testcase named after its describe block (or the file) with its tests <skipped/>,
 * where @testrun/vitest reports the tests failed, as Jest does.
 */
const FROM_VITEST_JUNIT = changed(
  PARITY_RESULTS,
  (result) => {
    if (result.status === 'todo') return 'skipped';
    if (isIn(result, 'setup-fails.test.js', ['database > reads a row', 'database > writes a row']))
      return 'skipped';
    if (isIn(result, 'setup-fails-at-top.test.js', ['needs the setup', 'a block > needs it too']))
      return 'skipped';
    return result.status;
  },
  [
    { testSuite: 'setup-fails.test.js', testCase: 'database', status: 'failed' },
    { testSuite: 'setup-fails-at-top.test.js', testCase: '(file failed to run)', status: 'failed' },
  ],
);

/** What jest-junit carries: a todo test is a plain <testcase>, so it reads as passed. */
const FROM_JEST_JUNIT = changed(PARITY_RESULTS, (result) =>
  result.status === 'todo' ? 'passed' : result.status,
);

describe('JUnit XML of the parity fixture, uploaded', () => {
  let server: TestServer;
  const reports = tempDir('testrun-junit-round-trip-');
  const vitestReport = path.join(reports, 'vitest-junit.xml');
  const jestReport = path.join(reports, 'jest-junit.xml');

  beforeAll(async () => {
    // Without the file attribute every result would land under one suite: read, not guessed.
    expect(JEST_JUNIT_ENV).toMatchObject({ JEST_JUNIT_ADD_FILE_ATTRIBUTE: 'true' });
    server = await startTestServer();
    const cwd = fixtures.parity;
    const [vitest, jest] = await Promise.all([
      runVitest({ cwd, args: ['--reporter=junit', `--outputFile=${vitestReport}`] }),
      runJest({
        cwd,
        args: ['--reporters=jest-junit'],
        env: { ...JEST_JUNIT_ENV, JEST_JUNIT_OUTPUT_FILE: jestReport },
      }),
    ]);
    // The fixture fails on purpose; the reports must exist all the same.
    expect({ vitest: vitest.code, jest: jest.code }).toEqual({ vitest: 1, jest: 1 });
    const env = cleanEnv({
      TESTRUN_API_KEY: server.apiKey,
      TESTRUN_BASE_URL: server.url,
      TESTRUN_SPOOL_DIR: reports,
    });
    const upload = (report: string) =>
      runProcess(process.execPath, [CLI_BIN, 'upload', report], { env, cwd });
    const uploads = await Promise.all([upload(vitestReport), upload(jestReport)]);
    expect(uploads.map((upload) => upload.code)).toEqual([0, 0]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    fs.rmSync(reports, { recursive: true, force: true });
  });

  const storedFor = (framework: string) => resultsOfFramework(server, framework);

  it('creates one run per report, named after the framework the report says wrote it', async () => {
    expect((await server.server.store.runs()).map((run) => run.framework).sort()).toEqual(['jest', 'vitest']);
  });

  it("stores from Vitest's junit reporter what @testrun/vitest stores, apart from what JUnit cannot say", async () => {
    expect(identities(await storedFor('vitest'))).toEqual(identities(FROM_VITEST_JUNIT));
  });

  it('stores from jest-junit what @testrun/jest stores, apart from todo', async () => {
    expect(identities(await storedFor('jest'))).toEqual(identities(FROM_JEST_JUNIT));
  });

  it('stores the time each report gives, in milliseconds', async () => {
    const timeIn = (report: string, pattern: RegExp) =>
      Number(pattern.exec(fs.readFileSync(report, 'utf8'))?.[1]);
    const stored = async (framework: string) =>
      (await storedFor(framework)).find((result) => result.testCase === 'cart > fails on purpose')?.duration;
    const vitestSeconds = timeIn(vitestReport, /name="cart &gt; fails on purpose" time="([\d.]+)"/);
    const jestSeconds = timeIn(jestReport, /name="fails on purpose" time="([\d.]+)"/);
    expect(vitestSeconds).toBeGreaterThan(0);
    expect([await stored('vitest'), await stored('jest')]).toEqual([
      Math.round(vitestSeconds * 1_000_000) / 1000,
      Math.round(jestSeconds * 1_000_000) / 1000,
    ]);
  });
});
