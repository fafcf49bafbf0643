import { formatRunHandle } from '@testrun/core';
import { runCli, shownState, startTestServer, type TestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `testrun complete-run`: the job after the shards completes the run create-run made
// (docs/ci.md). It reads the run as create-run printed it, in TESTRUN_RUN_ID or --run-id.

const cliEnv = (server: TestServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  TESTRUN_API_KEY: server.apiKey,
  TESTRUN_BASE_URL: server.url,
  ...extra,
});

const completions = (server: TestServer) =>
  server.server.requests.filter((request) => request.route === 'completeRun');

async function createRun(server: TestServer): Promise<string> {
  const created = await runCli(['create-run', '--framework', 'vitest', '--project', 'P'], {
    env: cliEnv(server),
  });
  expect(created.code, created.stderr).toBe(0);
  return created.stdout.trim();
}

describe('testrun complete-run', () => {
  it('completes the run TESTRUN_RUN_ID holds, as create-run printed it, and the run shows its end', async () => {
    const server = await startTestServer({ abandonedAfterMs: 1 });
    const handle = await createRun(server);
    const runId = handle.split(';')[0]!;
    const completed = await runCli(['complete-run', '--status', 'failed'], {
      env: cliEnv(server, { TESTRUN_RUN_ID: handle }),
    });
    expect(completed.stderr).toBe('');
    expect(completed.stdout).toBe(`testrun complete-run: run ${runId} completed: failed\n`);
    expect(completed.code).toBe(0);
    expect(await shownState(server, runId)).toEqual({ api: 'failed', page: 'failed' });
  });

  it('sends nothing to a service that did not announce completing runs, says so, and exits 0', async () => {
    const server = await startTestServer({ completeRun: false });
    const told = await createRun(server);
    const bare = told.split(';')[0]!;
    expect(told).toBe(
      formatRunHandle(bare, ['failure-details', 'read-runs', 'attachments', 'quarantine'], {
        maxFileBytes: 100 * 1024 * 1024,
        maxRunBytes: 1024 * 1024 * 1024,
      }),
    );
    const outcome = await runCli(['complete-run', '--run-id', told], { env: cliEnv(server) });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe(
      `testrun complete-run: the service did not announce completing runs when run ${bare} was created; nothing was sent\n`,
    );
    expect(completions(server)).toEqual([]);
    // A bare id says nothing of the service: asked, the command asks it.
    expect((await runCli(['complete-run', '--run-id', bare], { env: cliEnv(server) })).code).toBe(0);
    expect(completions(server)).toHaveLength(1);
  });

  it('exits 1 with one line when the run already ended another way', async () => {
    const server = await startTestServer();
    const handle = await createRun(server);
    const first = await runCli(['complete-run', '--run-id', handle, '--status', 'interrupted'], {
      env: cliEnv(server),
    });
    expect(first.code).toBe(0);
    const second = await runCli(['complete-run', '--run-id', handle], { env: cliEnv(server) });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /^testrun complete-run: the run could not be completed: PATCH .* answered 409: .*already completed as interrupted.*\n$/,
    );
    // A 409 here is an answer, not a busy service: asked once.
    expect(completions(server)).toHaveLength(2);
  });

  it('exits 2 on a status it does not know, and sends nothing', async () => {
    const server = await startTestServer();
    const done = await runCli(['complete-run', '--run-id', 'x', '--status', 'done'], { env: cliEnv(server) });
    expect(done.code).toBe(2);
    expect(done.stderr).toContain('--status must be completed, failed or interrupted, got "done"');
    expect(server.server.requests).toHaveLength(0);
  });
});
