import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  fixtures,
  identities,
  onlyRun,
  PYTEST_RESULTS,
  runCli,
  startTestServer,
  uploadCheckout,
  uploadEnv,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// CTRF JSON reports (https://ctrf.io) through the real CLI into a real server, from a
// checkout folder named `shop`, as a CI step uploads them: docs/ctrf.md says what each
// test must become.

function fixture(name: string): string {
  return fs.readFileSync(path.join(fixtures.ctrf, name), 'utf8');
}

const JEST_RESULTS = [
  { testSuite: 'src/cart.test.ts', testCase: 'Cart > totals > sums line items', status: 'passed' },
  { testSuite: 'src/cart.test.ts', testCase: 'Cart > totals > rounds half cents', status: 'failed' },
  // Passed on its second retry (flaky): passed, as the reporters count it.
  { testSuite: 'src/cart.test.ts', testCase: 'Cart > applies a coupon', status: 'passed' },
  // pending (it.skip); other with rawStatus todo (statusMap sends todo as skipped).
  { testSuite: 'src/cart.test.ts', testCase: 'Cart > ships abroad', status: 'skipped' },
  { testSuite: 'src/cart.test.ts', testCase: 'Cart > gift wraps', status: 'skipped' },
  // The suite only names the file; the second of one name is a result of its own.
  { testSuite: 'src/util/slug.test.ts', testCase: 'slugify keeps accents out', status: 'passed' },
  { testSuite: 'src/util/slug.test.ts', testCase: 'slugify keeps accents out (2)', status: 'skipped' },
];

const PLAYWRIGHT_RESULTS = [
  { testSuite: 'e2e/checkout/pay.spec.ts', testCase: 'chromium > Pay > pays by card', status: 'passed' },
  {
    testSuite: 'e2e/checkout/pay.spec.ts',
    testCase: 'chromium > Pay > refuses an expired card',
    status: 'failed',
  },
  { testSuite: 'e2e/checkout/pay.spec.ts', testCase: 'chromium > Pay > pays by invoice', status: 'skipped' },
  { testSuite: 'e2e/basket.spec.ts', testCase: 'chromium > shows the basket', status: 'passed' },
];

describe('testrun upload with CTRF reports', () => {
  it("stores jest-ctrf's tests named as @testrun/jest names them, with their file from another machine, in a jest run", async () => {
    const dir = uploadCheckout({ 'ctrf-report.json': fixture('jest-ctrf.json') });
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', 'reports/ctrf-report.json', '--project', 'shop'], {
      env: uploadEnv(server),
      cwd: dir,
    });

    expect(code, stderr).toBe(0);
    const { run, results } = await onlyRun(server);
    expect(run).toMatchObject({ project: 'shop', framework: 'jest' });
    expect(identities(results)).toEqual(identities(JEST_RESULTS));
    const duration = (testCase: string) => results.find((result) => result.testCase === testCase)?.duration;
    expect([duration('Cart > totals > rounds half cents'), duration('Cart > applies a coupon')]).toEqual([
      12, 31,
    ]);
    expect(stderr).toContain(
      'testrun upload: reports/ctrf-report.json: 1 test repeats the name of an earlier one; each is sent as a result of its own, with (2), (3)… after its name.\n',
    );
    expect(stderr).toContain(`testrun: 7 results → run ${run.id} (`);
  });

  it('reads JUnit and CTRF reports of one glob by their content, whatever their names, gzip included, into one run', async () => {
    const dir = uploadCheckout({
      'pytest.xml': fs.readFileSync(path.join(fixtures.junit, 'pytest.xml')),
      // A JSON report named .xml, and one gzip'd: the content says what each is.
      'jest.xml': fixture('jest-ctrf.json'),
      'playwright.json.gz': gzipSync(fixture('playwright-ctrf.json')),
    });
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', 'reports/*'], { env: uploadEnv(server), cwd: dir });

    expect(code, stderr).toBe(0);
    const { run, results } = await onlyRun(server);
    // Three tools: the run is junit's, as for JUnit reports of different frameworks.
    expect(run.framework).toBe('junit');
    expect(identities(results)).toEqual(
      identities([...PYTEST_RESULTS, ...JEST_RESULTS, ...PLAYWRIGHT_RESULTS]),
    );
  });

  it("names the run after results.tool, and maps Playwright's flaky and timed-out tests by their final status", async () => {
    const dir = uploadCheckout({ 'ctrf.json': fixture('playwright-ctrf.json') });
    const server = await startTestServer();
    const { code } = await runCli(['upload', 'reports/ctrf.json'], { env: uploadEnv(server), cwd: dir });

    expect(code).toBe(0);
    const { run, results } = await onlyRun(server);
    expect(run.framework).toBe('playwright');
    expect(identities(results)).toEqual(identities(PLAYWRIGHT_RESULTS));
    expect(results.find((result) => result.testCase.endsWith('pays by card'))?.duration).toBe(1830);
  });

  it('names tests without filePath by their suite, maps every status, and says which tests had no name or duration', async () => {
    const report = {
      reportFormat: 'CTRF',
      results: {
        tool: { name: 'cucumber-js' },
        tests: [
          { name: 'lists users', status: 'passed', duration: 5, suite: ['api', 'users'] },
          { name: 'adds a user', status: 'failed', duration: 7, suite: 'api > users' },
          { name: 'deletes a user', status: 'pending', duration: 0, suite: 'api > users' },
          { name: 'bans a user', status: 'other', rawStatus: 'undefined', duration: 1, suite: 'api > users' },
          { name: 'mutes a user', status: 'other', duration: 'fast', suite: 'api > users' },
          { status: 'passed', duration: 2, suite: 'api > users' },
          { name: 'pings', status: 'Skipped', duration: -1 },
        ],
      },
    };
    const dir = uploadCheckout({ 'cucumber.json': JSON.stringify(report, null, 2) });
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', 'reports/cucumber.json'], {
      env: uploadEnv(server),
      cwd: dir,
    });

    expect(code, stderr).toBe(0);
    const { run, results } = await onlyRun(server);
    expect(run.framework).toBe('cucumber-js');
    expect(
      results
        .map(({ testSuite, testCase, status, duration }) => ({ testSuite, testCase, status, duration }))
        .sort((a, b) => a.testCase.localeCompare(b.testCase)),
    ).toEqual([
      { testSuite: 'api > users', testCase: '(unnamed)', status: 'passed', duration: 2 },
      { testSuite: 'api > users', testCase: 'adds a user', status: 'failed', duration: 7 },
      // other, and its rawStatus says it failed: Cucumber fails a run with an undefined step.
      { testSuite: 'api > users', testCase: 'bans a user', status: 'failed', duration: 1 },
      { testSuite: 'api > users', testCase: 'deletes a user', status: 'skipped', duration: 0 },
      { testSuite: 'api > users', testCase: 'lists users', status: 'passed', duration: 5 },
      // other, and nothing says it failed: neither a pass nor a failure anyone reported.
      { testSuite: 'api > users', testCase: 'mutes a user', status: 'skipped', duration: 0 },
      { testSuite: '(unnamed)', testCase: 'pings', status: 'skipped', duration: 0 },
    ]);
    expect(stderr).toContain(
      'testrun upload: reports/cucumber.json: results.tests[5]: 1 test has no name; sent as (unnamed).\n',
    );
    expect(stderr).toContain(
      'testrun upload: reports/cucumber.json: results.tests[4]: 2 tests have a duration that is not a number of milliseconds ("duration": "fast"); sent with duration 0.\n',
    );
  });
});

describe('testrun upload with CTRF reports it cannot read', () => {
  it('sends nothing of a malformed or foreign JSON report, sends the others, names each with the reason in one line, and exits 1', async () => {
    const good = fixture('jest-ctrf.json');
    const dir = uploadCheckout({
      'good.json': good,
      // Cut short, as when the test process is killed while writing it.
      'cut.json': good.slice(0, good.indexOf('"Cart applies a coupon"')),
      'bad-status.json': JSON.stringify({
        results: {
          tool: { name: 'x' },
          tests: [
            { name: 'a', status: 'passed' },
            { name: 'b', status: 'timedOut' },
          ],
        },
      }),
      'syntax.json': '{\n  "results": {\n    "tests": [ { "name": "a", "status": "passed", } ]\n  }\n}\n',
      'jest-json.json': JSON.stringify({ numFailedTests: 0, testResults: [] }),
      'other-format.json': JSON.stringify({
        reportFormat: 'JUnit',
        results: { tool: { name: 'x' }, tests: [] },
      }),
    });
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', 'reports/*.json'], { env: uploadEnv(server), cwd: dir });

    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((line) => line.startsWith('testrun upload: '));
    expect(lines).toEqual([
      'testrun upload: reports/bad-status.json: results.tests[1] has the status "timedOut"; CTRF\'s statuses are passed, failed, skipped, pending, other. Nothing from it is sent.',
      expect.stringMatching(
        /^testrun upload: reports\/cut\.json:\d+: not well-formed JSON \(it ends inside a value\)\. It ends too early: was the test process stopped while writing it\? Nothing from it is sent\.$/,
      ),
      'testrun upload: reports/jest-json.json: not a CTRF report: it has no reportFormat "CTRF", no results.tool and no results.tests. Give testrun upload JUnit XML, CTRF JSON or TAP reports. Nothing from it is sent.',
      'testrun upload: reports/other-format.json: not a CTRF report: its reportFormat is "JUnit", not "CTRF". Give testrun upload JUnit XML, CTRF JSON or TAP reports. Nothing from it is sent.',
      'testrun upload: reports/syntax.json:3:51: not well-formed JSON (unexpected "}"). Nothing from it is sent.',
      'testrun upload: reports/good.json: 1 test repeats the name of an earlier one; each is sent as a result of its own, with (2), (3)… after its name.',
    ]);
    expect(stderr).toMatch(/testrun: 7 results → run .+; 5 reports not sent \(see above\)\n/);
    expect(identities((await onlyRun(server)).results)).toEqual(identities(JEST_RESULTS));
  });
});
