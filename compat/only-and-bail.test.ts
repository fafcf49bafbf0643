import {
  identities,
  mochaFixtures,
  reporterEnv,
  runMocha,
  startTestServer,
  testrunLines,
} from '@testrun/test-utils';
import { expect, it } from 'vitest';

// Mocha's flags that change which tests run: the reporter stores what ran, as it ran, and
// leaves the exit code Mocha's own. node --test-only differs by Node version: compat/matrix.test.ts.

it('stores what Mocha ran before --bail stopped it, and nothing after', async () => {
  const server = await startTestServer();
  const [outcome, alone] = await Promise.all([
    runMocha({ cwd: mochaFixtures.bail, args: ['--bail'], env: reporterEnv(server) }),
    runMocha({ cwd: mochaFixtures.bail, args: ['--bail'], withoutReporter: true }),
  ]);
  const stored = await server.server.store.allResults();
  expect(identities(stored), outcome.stdout + outcome.stderr).toEqual([
    { testSuite: 'bail.test.js', testCase: 'bail > fails', status: 'failed' },
    { testSuite: 'bail.test.js', testCase: 'bail > passes first', status: 'passed' },
  ]);
  expect([outcome.code, alone.code]).toEqual([1, 1]);
});

// Mocha refuses the `.only` while it loads the files, before it makes the reporter: there is
// no run to report, and the reporter must not invent one or say anything.
it('reports nothing for a run Mocha refuses with --forbid-only, and leaves its exit code', async () => {
  const server = await startTestServer();
  const [outcome, alone] = await Promise.all([
    runMocha({ cwd: mochaFixtures.only, args: ['--forbid-only'], env: reporterEnv(server) }),
    runMocha({ cwd: mochaFixtures.only, args: ['--forbid-only'], withoutReporter: true }),
  ]);
  const output = outcome.stdout + outcome.stderr;
  expect(output).toContain('ERR_MOCHA_FORBIDDEN_EXCLUSIVITY');
  expect([outcome.code, alone.code]).toEqual([1, 1]);
  expect(await server.server.store.runs()).toEqual([]);
  expect(testrunLines(output)).toEqual([]);
});
