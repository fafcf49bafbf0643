import {
  fixtures,
  readSpoolLines,
  reporterEnv,
  runCli,
  runVitest,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The run's end (completeRun): a real Vitest run against the real server, which stores how
// each run ended and answers PATCH /api/v1/runs/{id} as the option's default form sends it.

function cliEnv(server: TestServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url, ...extra };
}

function completions(server: TestServer) {
  return server.server.requests.filter((request) => request.route === 'completeRun');
}

async function stateOf(server: TestServer, runId: string): Promise<string> {
  const answer = await fetch(`${server.url}/api/v1/runs/${runId}`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  return ((await answer.json()) as { state: string }).state;
}

describe('a reporter with completeRun', () => {
  it('completes a passing run after its results, and says so in its summary', async () => {
    const server = await startTestServer();
    const run = await runVitest({
      cwd: fixtures.passing,
      env: reporterEnv(server, { TESTRUN_COMPLETE_RUN: '1' }),
    });
    expect(run.code).toBe(0);
    const [stored] = await server.server.store.runs();
    // Last, once: after every batch (one or more, as the files' timing makes them).
    const routes = server.server.requests.map((request) => request.route);
    expect([...new Set(routes)]).toEqual(['createRun', 'submitResults', 'completeRun']);
    expect(routes.filter((route) => route === 'completeRun')).toHaveLength(1);
    expect(routes.at(-1)).toBe('completeRun');
    expect(await stateOf(server, stored!.id)).toBe('completed');
    expect(testrunLines(run.stderr)).toEqual([expect.stringMatching(/; run marked completed$/)]);
  });

  it('completes a run with a failed test as failed', async () => {
    const server = await startTestServer();
    await runVitest({ cwd: fixtures.parity, env: reporterEnv(server, { TESTRUN_COMPLETE_RUN: 'true' }) });
    const [stored] = await server.server.store.runs();
    expect(await stateOf(server, stored!.id)).toBe('failed');
  });

  it('sends nothing more without the option: the run stays running', async () => {
    const server = await startTestServer();
    await runVitest({ cwd: fixtures.passing, env: reporterEnv(server) });
    const [stored] = await server.server.store.runs();
    expect(completions(server)).toHaveLength(0);
    expect(await stateOf(server, stored!.id)).toBe('running');
  });

  it('sends the request an object describes, to a service whose operation differs', async () => {
    const finished: { path: string; body: unknown }[] = [];
    const server = await startTestServer({
      faults: (r) => {
        if (!r.path.endsWith('/finish')) return undefined;
        finished.push({ path: r.path, body: r.body });
        return { status: 204 };
      },
    });
    const completeRun = {
      method: 'POST',
      path: '/api/v1/runs/{runId}/finish',
      body: { state: '{status}', id: '{runId}' },
    };
    const run = await runVitest({
      cwd: fixtures.passing,
      env: reporterEnv(server, { TESTRUN_COMPLETE_RUN: JSON.stringify(completeRun) }),
    });
    const [stored] = await server.server.store.runs();
    expect(finished).toEqual([
      { path: `/api/v1/runs/${stored!.id}/finish`, body: { state: 'completed', id: stored!.id } },
    ]);
    expect(testrunLines(run.stderr)).toEqual([expect.stringMatching(/; run marked completed$/)]);
  });

  it('retries a 5xx with the same idempotency key until the run is completed', async () => {
    const server = await startTestServer({
      faults: (r) => (r.route === 'completeRun' && r.n < 2 ? { status: 503 } : undefined),
    });
    const run = await runVitest({
      cwd: fixtures.passing,
      env: reporterEnv(server, { TESTRUN_COMPLETE_RUN: '1' }),
    });
    expect(run.code).toBe(0);
    const attempts = completions(server);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
    expect(await stateOf(server, (await server.server.store.runs())[0]!.id)).toBe('completed');
  });

  it('says a refusal in one line, once, and the build stays green', async () => {
    const server = await startTestServer({
      faults: (r) =>
        r.route === 'completeRun' ? { status: 422, body: { error: 'no such state' } } : undefined,
    });
    const env = reporterEnv(server, { TESTRUN_COMPLETE_RUN: '1' });
    const run = await runVitest({ cwd: fixtures.passing, env });
    expect(run.code).toBe(0);
    expect(completions(server)).toHaveLength(1);
    const lines = testrunLines(run.stderr);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^testrun: the run could not be completed: PATCH .* answered 422: .*no such state/,
    );
    // Asking again would be refused again: nothing waits in the spool.
    expect(readSpoolLines(env.TESTRUN_SPOOL_DIR!)).toEqual([]);
  });

  it('spools the end when the service never takes it, and a replay completes the run', async () => {
    const server = await startTestServer({
      faults: (r) => (r.route === 'completeRun' ? { status: 503 } : undefined),
    });
    const env = reporterEnv(server, {
      TESTRUN_COMPLETE_RUN: '1',
      FIXTURE_REPORTER_OPTIONS: JSON.stringify({ maxRetries: 1 }),
    });
    const run = await runVitest({ cwd: fixtures.passing, env });
    expect(run.code).toBe(0);
    expect(testrunLines(run.stderr).at(-1)).toMatch(
      /; the run's end \(completed\) spooled to .*\.ndjson: send it with `npx @testrun\/cli replay --dir /,
    );
    expect(readSpoolLines(env.TESTRUN_SPOOL_DIR!).map((line) => line.type)).toEqual(['run', 'complete']);

    server.server.setFaults(undefined);
    const replayed = await runCli(['replay', '--dir', env.TESTRUN_SPOOL_DIR!], { env: cliEnv(server) });
    expect(replayed.stderr).toBe('');
    expect(replayed.stdout).toContain('1 run completed');
    expect(replayed.code).toBe(0);
    expect(await stateOf(server, (await server.server.store.runs())[0]!.id)).toBe('completed');
    expect(readSpoolLines(env.TESTRUN_SPOOL_DIR!)).toEqual([]);
    // The replay sent the end with the key the reporter gave it: one request, as the service sees it.
    expect(new Set(completions(server).map((attempt) => attempt.idempotencyKey)).size).toBe(1);
  });
});

describe('a run shared by shards', () => {
  it('is never completed by a reporter; testrun complete-run completes it', async () => {
    const server = await startTestServer();
    const created = await runCli(['create-run', '--framework', 'vitest', '--project', 'P'], {
      env: cliEnv(server),
    });
    const runId = created.stdout.trim();
    await runVitest({
      cwd: fixtures.passing,
      env: reporterEnv(server, { TESTRUN_RUN_ID: runId, TESTRUN_COMPLETE_RUN: '1' }),
    });
    expect(completions(server)).toHaveLength(0);
    expect(await stateOf(server, runId)).toBe('running');

    const completed = await runCli(['complete-run', '--status', 'failed'], {
      env: cliEnv(server, { TESTRUN_RUN_ID: runId }),
    });
    expect(completed.stderr).toBe('');
    expect(completed.stdout).toBe(`testrun complete-run: run ${runId} completed: failed\n`);
    expect(completed.code).toBe(0);
    expect(await stateOf(server, runId)).toBe('failed');
  });

  it('testrun complete-run exits 1 with one line when the run already ended another way', async () => {
    const server = await startTestServer();
    const created = await runCli(['create-run', '--framework', 'vitest'], { env: cliEnv(server) });
    const runId = created.stdout.trim();
    const first = await runCli(['complete-run', '--run-id', runId, '--status', 'interrupted'], {
      env: cliEnv(server),
    });
    expect(first.code).toBe(0);
    const second = await runCli(['complete-run', '--run-id', runId], { env: cliEnv(server) });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /^testrun complete-run: the run could not be completed: PATCH .* answered 409: .*already completed as interrupted.*\n$/,
    );
    // A 409 here is an answer, not a busy service: asked once.
    expect(completions(server)).toHaveLength(2);
    expect(await stateOf(server, runId)).toBe('interrupted');
  });

  it('testrun complete-run exits 2 on a status it does not know', async () => {
    const server = await startTestServer();
    const done = await runCli(['complete-run', '--run-id', 'x', '--status', 'done'], { env: cliEnv(server) });
    expect(done.code).toBe(2);
    expect(done.stderr).toContain('--status must be completed, failed or interrupted, got "done"');
    expect(server.server.requests).toHaveLength(0);
  });
});
