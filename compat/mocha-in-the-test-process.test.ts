import {
  AWAIT_RUNS_TIMEOUT_MS,
  identities,
  mochaFixtures,
  PASSING_RESULTS,
  type RunOutcome,
  reporterEnv,
  resultsIn,
  resultsTagged,
  runMocha,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// In serial mode Mocha runs the tests in the reporter's own process. The shared-process
// fixture does to that process what real suites do (see its files): a built-in stubbed while
// events fire, fake timers installed and never restored, odd titles, every kind of skip, root
// hooks. Every result must still be stored, and the exit code kept.

const SHARED_PROCESS_RESULTS = [
  ...resultsIn('a-stubbed-builtins.test.js', [
    ['stubbed built-ins > passes while Array.prototype.filter returns undefined', 'passed'],
    ['stubbed built-ins > is skipped while it does', 'skipped'],
  ]),
  ...resultsIn('b-names.test.js', [
    ['names real suites have  > ends with a space ', 'passed'],
    ['names real suites have  > has a > inside', 'passed'],
    [`names real suites have  > ${'x'.repeat(220)}`, 'passed'],
    ['names real suites have  > repeats', 'passed'],
    ['names real suites have  > repeats', 'passed'],
  ]),
  ...resultsIn('c-skips.test.js', [
    ['three kinds of skip > is skipped where it is declared', 'skipped'],
    ['three kinds of skip > skips itself', 'skipped'],
    ['three kinds of skip > has no function yet', 'skipped'],
    ['three kinds of skip > a block whose before hook skips > never starts', 'skipped'],
  ]),
  ...resultsIn('d-fake-timers.test.js', [
    ['fake timers > runs before the fakes', 'passed'],
    ['fake timers > installs fake timers and never uninstalls them', 'passed'],
    ['fake timers > runs with the fakes installed', 'passed'],
    ['fake timers > fails with the fakes installed', 'failed'],
  ]),
];

describe('Mocha tests that share their process with the reporter', () => {
  let server: TestServer;
  let withReporter: RunOutcome;
  let alone: RunOutcome;
  let checkLeaks: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    [withReporter, alone, checkLeaks] = await Promise.all([
      runMocha({ cwd: mochaFixtures.sharedProcess, env: reporterEnv(server, { TESTRUN_TAGS: 'shared' }) }),
      runMocha({ cwd: mochaFixtures.sharedProcess, withoutReporter: true }),
      // --check-leaks fails a test after which a global appeared; dot's output replaces spec's.
      runMocha({
        cwd: mochaFixtures.passing,
        args: ['--check-leaks', '--reporter-option', 'reporter=dot'],
        env: reporterEnv(server, { TESTRUN_TAGS: 'leaks' }),
      }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('stores every result, through stubbed built-ins and fake timers never restored', async () => {
    expect(identities(await resultsTagged(server, 'shared')), withReporter.stderr).toEqual(
      identities(SHARED_PROCESS_RESULTS),
    );
    expect(testrunLines(withReporter.stderr)).toEqual([expect.stringMatching(/^testrun: 15 results → run /)]);
  });

  it('keeps the exit code of the failing test, as without the reporter', () => {
    expect([withReporter.code, alone.code]).toEqual([1, 1]);
  });

  it("keeps Mocha's console output: spec's by default, the wrapped reporter's when named", () => {
    expect(withReporter.stdout).toContain('✔ passes while Array.prototype.filter returns undefined');
    expect(withReporter.stdout).toMatch(/9 passing .*\n {2}5 pending\n {2}1 failing/);
    expect(checkLeaks.stdout).not.toContain('✔');
    expect(checkLeaks.stdout).toMatch(/5 passing/);
  });

  it('adds no global Mocha --check-leaks would find', async () => {
    expect(checkLeaks.code, checkLeaks.stdout).toBe(0);
    expect(identities(await resultsTagged(server, 'leaks'))).toEqual(identities(PASSING_RESULTS));
  });
});
