import {
  identities,
  PASSING_RESULTS,
  playwrightFixtures,
  reporterEnv,
  runPlaywright,
  startTestServer,
  testrunLines,
} from '@testrun/test-utils';
import { expect, it } from 'vitest';

// @testrun/playwright is an ES module package. Playwright loads reporters named in any
// kind of config file; each of these names it the same way: '@testrun/playwright'.
it.each([
  ['an ES module playwright.config.mjs', []],
  ['a CommonJS config (.cjs)', ['--config', 'commonjs.config.cjs']],
  ['a TypeScript config (.ts)', ['--config', 'typescript.config.ts']],
])('loads the reporter from %s', async (_config, args) => {
  const server = await startTestServer();
  const outcome = await runPlaywright({ cwd: playwrightFixtures.passing, args, env: reporterEnv(server) });

  const [run] = await server.server.store.runs();
  expect(run?.framework, outcome.stderr).toBe('playwright');
  expect(identities(await server.server.store.results(run!.id))).toEqual(identities(PASSING_RESULTS));
  expect(testrunLines(outcome.stderr)).toEqual([expect.stringMatching(/^testrun: 7 results → run /)]);
  expect(outcome.code).toBe(0);
});
