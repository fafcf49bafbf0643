import {
  playwrightFixtures,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  runPlaywright,
  startTestServer,
} from '@testrun/test-utils';
import { expect, it } from 'vitest';

// Playwright calls every reporter's onExit, one after the other, just before it exits. A
// probe reporter configured after ours lists the process's open handles in its own onExit:
// by then our reporter must have closed every socket and timer it opened.
const args = ['--config', 'open-handles.config.mjs'];

it('leaves no socket or timer open once onExit has run, after results were delivered', async () => {
  const server = await startTestServer({
    faults: (req) => (req.route === 'submitResults' ? { delayMs: 300 } : undefined),
  });
  const outcome = await runPlaywright({ cwd: playwrightFixtures.passing, args, env: reporterEnv(server) });

  expect(await server.server.store.allResults()).toHaveLength(7);
  expect(outcome.stderr).toContain('open handles: []');
});

it('leaves no socket or timer open when the service never answered in time', async () => {
  const server = await startTestServer({ faults: () => ({ delayMs: 30_000 }) });
  const env = reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify({ flushTimeout: 1000 }) });
  const outcome = await runPlaywright({ cwd: playwrightFixtures.passing, args, env });

  expect(outcome.stderr).toMatch(/testrun: 0 results → .*7 spooled/);
  expect(outcome.stderr).toContain('open handles: []');
});
