import { describe, expect, it } from 'vitest';
import { startTestServer } from '../src/server.js';

// Vitest's onTestFinished names the test that started last: under describe.concurrent a
// helper's server was closed when a sibling test finished, under the test still using it
// ("the database is closed"). Here the sibling starts, the server is started, the sibling
// finishes (its own hooks, registered after the helper's, run), and the server still answers.
function signal() {
  let done!: () => void;
  const happened = new Promise<void>((resolve) => {
    done = resolve;
  });
  return { done, happened };
}
const siblingStarted = signal();
const serverStarted = signal();
const siblingFinished = signal();

describe.concurrent('a server started in a concurrent test', () => {
  it('stays open while its test runs, though a sibling started later has finished', async () => {
    await siblingStarted.happened;
    const started = await startTestServer();
    serverStarted.done();
    await siblingFinished.happened;
    expect(await started.server.store.runs()).toEqual([]);
    const answer = await fetch(`${started.url}/api/v1/runs`, {
      headers: { authorization: `Bearer ${started.apiKey}` },
    });
    expect(answer.status).toBe(200);
  });

  it('(a sibling that starts later and finishes first)', async ({ onTestFinished }) => {
    siblingStarted.done();
    await serverStarted.happened;
    onTestFinished(() => siblingFinished.done());
  });
});
