import { fixtures, reporterEnv, runJest, startTestServer, type TestServer } from '@testrun/test-utils';
import { beforeEach, expect, it } from 'vitest';

// @testrun/jest is an ES module package. Jest loads reporters with require(), which reads
// ES modules on Node >= 20.19, or falls back to import(); either way the default export
// is the reporter class. Both kinds of config file name the package the same way.
let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

it.each([
  ['a CommonJS jest.config.js', []],
  ['an ES module jest.config.mjs', ['--config', 'jest.esm.config.mjs']],
])('loads the reporter from %s', async (_config, args) => {
  const outcome = await runJest({ cwd: fixtures.passing, args, env: reporterEnv(server) });

  const [run] = await server.server.store.runs();
  expect(run?.framework).toBe('jest');
  expect(await server.server.store.results(run!.id)).toHaveLength(7);
  expect(outcome.code).toBe(0);
});
