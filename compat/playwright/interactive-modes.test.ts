import {
  identities,
  openPlaywrightUi,
  PASSING_RESULTS,
  playwrightFixtures,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  runPlaywright,
  startTestServer,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `playwright test --ui` and `--debug` are sessions at a developer's desk, like watch mode:
// nothing is reported (one notice per session) unless the `watch` option says so.
// `--list` runs no test at all, so there is nothing to report and nothing to say.

const cwd = playwrightFixtures.passing;
const NOTICE =
  'testrun: watch mode: results are not reported. Set the watch option to true to report a run per rerun.';
const withWatch = { [REPORTER_OPTIONS_VAR]: JSON.stringify({ watch: true }) };

// Each test has its own server and Playwright session, and mostly waits on Playwright: they
// run side by side (a test's own onTestFinished, as Vitest's global one names the last test started).
describe.concurrent("playwright test in a developer's modes", () => {
  describe('playwright test --ui', () => {
    it('reports none of the runs started from the UI, and says so once per session', async ({
      onTestFinished,
    }) => {
      const server = await startTestServer();
      const ui = await openPlaywrightUi({ cwd, env: reporterEnv(server) });
      onTestFinished(() => ui.stop());

      expect(await ui.runAllTests()).toBe('passed');
      expect(await ui.runAllTests()).toBe('passed');

      expect(testrunLines(ui.output())).toEqual([NOTICE]);
      expect(server.server.requests).toEqual([]);
    });

    it('reports each run started from the UI with watch: true', async ({ onTestFinished }) => {
      const server = await startTestServer();
      const ui = await openPlaywrightUi({ cwd, env: reporterEnv(server, withWatch) });
      onTestFinished(() => ui.stop());

      await ui.runAllTests();
      await ui.runAllTests();

      const runs = await server.server.store.runs();
      expect(
        await Promise.all(runs.map(async (run) => identities(await server.server.store.results(run.id)))),
      ).toEqual([identities(PASSING_RESULTS), identities(PASSING_RESULTS)]);
    });
  });

  describe('playwright test --debug', () => {
    it.each<[string, { args?: string[]; env?: Record<string, string> }]>([
      ['--debug', { args: ['--debug'] }],
      ['--debug=cli', { args: ['--debug=cli'] }],
      ['PWDEBUG=1', { env: { PWDEBUG: '1' } }],
    ])('%s reports nothing, with one notice, and keeps the exit code', async (_how, { args, env }) => {
      const server = await startTestServer();
      const outcome = await runPlaywright({ cwd, args, env: reporterEnv(server, env) });

      expect(testrunLines(outcome.stderr)).toEqual([NOTICE]);
      expect(server.server.requests).toEqual([]);
      expect(outcome.code).toBe(0);
    });

    it('reports the run with watch: true', async () => {
      const server = await startTestServer();
      await runPlaywright({ cwd, args: ['--debug'], env: reporterEnv(server, withWatch) });

      const [run] = await server.server.store.runs();
      expect(identities(await server.server.store.results(run!.id))).toEqual(identities(PASSING_RESULTS));
    });
  });

  describe('playwright test --list', () => {
    it('creates no run and prints nothing of ours', async () => {
      const server = await startTestServer();
      const outcome = await runPlaywright({ cwd, args: ['--list'], env: reporterEnv(server) });

      expect(outcome.stdout).toContain('Total: 7 tests in 2 files');
      expect(testrunLines(outcome.stdout + outcome.stderr)).toEqual([]);
      expect(server.server.requests).toEqual([]);
    });
  });
});
