import { frameworksHere, reporterEnv, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The fixture's last file waits, inside its only test, until the nine results of the
// other files are stored, and expects exactly nine: it can only pass if results stream
// in per file while the run is still going.
// Each framework's run has a server of its own: they run side by side, as the last file mostly waits.
describe.concurrent.each(frameworksHere())('$name', ({ run, fixtures }) => {
  it('delivers the results of finished files while another file is still running', async () => {
    const server = await startTestServer();
    const outcome = await run({ cwd: fixtures.streaming, env: reporterEnv(server) });

    expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);
    const [storedRun] = await server.server.store.runs();
    const stored = await server.server.store.results(storedRun!.id);
    expect(stored!.find((result) => result.testSuite === 'last.test.js')).toMatchObject({
      testCase: 'sees the results of the other files on the server',
      status: 'passed',
    });
    expect(stored).toHaveLength(10);
  });
});
