import { fixtures, reporterEnv, runVitest, startTestServer, testrunLines } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The run's end through a real Vitest process against the real server (docs/design/run-end.md):
// what only a runner shows — the option read from the environment, the request last and once after
// every batch the runner's files made. The rules themselves (retries, refusals, the spool, replay,
// shared runs, a service that announces nothing) are core's and the CLI's, proven there
// (packages/core/test/delivery/complete-run*.test.ts, packages/cli/test/complete-run.e2e.test.ts).

describe('a Vitest run and the end of the run it created', () => {
  it('completes it by default, once and last, after every batch, and says so in its summary', async () => {
    const server = await startTestServer();
    const run = await runVitest({ cwd: fixtures.passing, env: reporterEnv(server) });
    expect(run.code).toBe(0);
    const [stored] = await server.server.store.runs();
    const routes = server.server.requests.map((request) => request.route);
    expect([...new Set(routes)]).toEqual(['createRun', 'submitResults', 'completeRun']);
    expect(routes.filter((route) => route === 'completeRun')).toHaveLength(1);
    expect(routes.at(-1)).toBe('completeRun');
    expect(await server.server.store.endOf(stored!.id)).toMatchObject({ status: 'completed' });
    expect(testrunLines(run.stderr)).toEqual([expect.stringMatching(/; run marked completed$/)]);
  });

  it('sends nothing more with TESTRUN_COMPLETE_RUN=0: the run stays running', async () => {
    const server = await startTestServer();
    await runVitest({ cwd: fixtures.passing, env: reporterEnv(server, { TESTRUN_COMPLETE_RUN: '0' }) });
    const [stored] = await server.server.store.runs();
    expect(server.server.requests.filter((request) => request.route === 'completeRun')).toEqual([]);
    expect(await server.server.store.endOf(stored!.id)).toBeUndefined();
  });

  it('sends the request TESTRUN_COMPLETE_RUN describes as JSON, to a service whose operation differs', async () => {
    const finished: { path: string; body: unknown }[] = [];
    const server = await startTestServer({
      completeRun: false,
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
    // Asked for, it goes to a service that did not announce it, in the form given.
    expect(finished).toEqual([
      { path: `/api/v1/runs/${stored!.id}/finish`, body: { state: 'completed', id: stored!.id } },
    ]);
    expect(testrunLines(run.stderr)).toEqual([expect.stringMatching(/; run marked completed$/)]);
  });
});
