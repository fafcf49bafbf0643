import type { ServerOptions } from '@testrun/server';
import { startTestServer, type TestServer, tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { formatRunHandle } from '../../src/extensions.js';
import { RunReporter } from '../../src/run-reporter.js';
import type { RawResult, RunnerVerdict, TestrunOptions } from '../../src/types.js';

// A reporter against a real server that quarantines a test (docs/design/quarantine.md): it learns the
// list only once a test failed in a run whose service announced quarantine, marks what it
// sends, and judges the run: passed in the process where the runner takes its verdict from the
// reporter (decidesVerdict), else failed as the runner says, each with its line.

const SUITE = 'src/cart.test.ts';
const FLAKY: RawResult = {
  testSuite: SUITE,
  testCase: 'cart > rounds',
  status: 'failed',
  duration: 4,
  failure: { errors: [new Error('expected 3 to be 2')] },
};
const OTHER: RawResult = { ...FLAKY, testCase: 'cart > adds', failure: { errors: ['boom'] } };
const PASSED: RawResult = { testSuite: SUITE, testCase: 'cart > ok', status: 'passed', duration: 1 };

async function serverQuarantining(options: ServerOptions = {}, days = 30): Promise<TestServer> {
  const server = await startTestServer(options);
  const answer = await fetch(`${server.url}/api/v1/quarantines`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      project: 'core-tests',
      testSuite: SUITE,
      testCase: 'cart > rounds',
      reason: 'flaky',
      days,
    }),
  });
  expect(answer.status).toBe(201);
  return server;
}

function reporterFor(
  server: TestServer,
  {
    decidesVerdict = false,
    options = {},
    env = {},
  }: { decidesVerdict?: boolean; options?: TestrunOptions; env?: NodeJS.ProcessEnv } = {},
) {
  const lines: string[] = [];
  const reporter = new RunReporter({
    options: {
      apiKey: server.apiKey,
      baseUrl: server.url,
      project: 'core-tests',
      ciTags: false,
      spoolDir: tempDir('testrun-quarantine-'),
      ...options,
    },
    framework: { name: 'vitest', version: '4.0.0' },
    rootDir: process.cwd(),
    env,
    write: (text) => lines.push(...text.split('\n').filter(Boolean)),
    decidesVerdict,
  });
  return { reporter, lines };
}

async function runOf(
  server: TestServer,
  results: readonly RawResult[],
  verdict: RunnerVerdict = { failed: true, failedByTestsAlone: true },
  init: Parameters<typeof reporterFor>[1] = {},
) {
  const { reporter, lines } = reporterFor(server, init);
  reporter.startRun();
  reporter.addResults(results);
  const summary = await reporter.endRun([], verdict);
  const [run] = await server.server.store.runs();
  const stored = run ? await server.server.store.results(run.id) : [];
  const end = run ? await server.server.store.endOf(run.id) : undefined;
  const reads = server.server.requests.filter((request) => request.path.endsWith('/quarantine'));
  return { summary, lines, stored, end, reads };
}

const passedLine = 'testrun: passed: 1 quarantined test failed (src/cart.test.ts › cart > rounds)';

describe('a reporter whose run holds a quarantined failure', () => {
  it('where the runner takes its verdict from it: marks the failure, passes the run and completes it, saying so', async () => {
    const server = await serverQuarantining();
    const { summary, lines, stored, end, reads } = await runOf(server, [PASSED, FLAKY], undefined, {
      decidesVerdict: true,
    });
    expect(summary?.quarantine).toEqual({ passes: true, quarantined: 1, failures: 1 });
    expect(stored.find((result) => result.testCase === 'cart > rounds')).toMatchObject({
      status: 'failed',
      quarantined: true,
      details: { message: 'expected 3 to be 2' },
    });
    expect(stored.find((result) => result.testCase === 'cart > ok')).not.toHaveProperty('quarantined');
    expect(end).toMatchObject({ status: 'completed' });
    expect(lines).toContain(passedLine);
    expect(reads).toHaveLength(1);
  });

  it('where the runner decides alone: marks the failure, but the run fails as the runner says, and the line says how to pass it', async () => {
    const server = await serverQuarantining();
    const { summary, lines, stored, end } = await runOf(server, [FLAKY]);
    expect(summary?.quarantine).toEqual({ passes: false, quarantined: 1, failures: 1 });
    expect(stored[0]).toMatchObject({ quarantined: true });
    expect(end).toMatchObject({ status: 'failed' });
    expect(lines).toContain(
      'testrun: 1 quarantined test failed (src/cart.test.ts › cart > rounds); vitest fails the build for them all the same: run it under testrun run to pass it (docs/quarantine.md)',
    );
  });

  it('where the adapter cannot vouch that nothing but the tests failed: the run fails, and the line says why', async () => {
    const server = await serverQuarantining();
    const { summary, lines, end } = await runOf(
      server,
      [FLAKY],
      { failed: true, notTestsAlone: 'coverage thresholds are set' },
      { decidesVerdict: true },
    );
    expect(summary?.quarantine).toMatchObject({ passes: false });
    expect(end).toMatchObject({ status: 'failed' });
    expect(lines).toContain(
      "testrun: failed: 1 quarantined test failed (src/cart.test.ts › cart > rounds), but coverage thresholds are set: vitest's verdict stands",
    );
  });

  it('with another failure that is not quarantined: fails, naming it and why, the quarantined one still marked', async () => {
    const server = await serverQuarantining();
    const { summary, lines, stored, end } = await runOf(server, [FLAKY, OTHER], undefined, {
      decidesVerdict: true,
    });
    expect(summary?.quarantine).toEqual({ passes: false, quarantined: 1, failures: 2 });
    expect(stored.map((result) => result.quarantined ?? false)).toEqual([true, false]);
    expect(end).toMatchObject({ status: 'failed' });
    expect(lines).toContain(
      `testrun: failed: 1 failure is not a quarantined test's: src/cart.test.ts › cart > adds (not quarantined in project "core-tests"); 1 quarantined test failed too (src/cart.test.ts › cart > rounds)`,
    );
  });

  it('whose quarantine expired: quarantines nothing, and says it expired', async () => {
    const server = await serverQuarantining();
    await server.server.store.write((tx) =>
      tx.tx.query("UPDATE quarantines SET expires_at = '2026-01-02T00:00:00.000Z'"),
    );
    const { summary, lines, stored, end } = await runOf(server, [FLAKY], undefined, { decidesVerdict: true });
    expect(summary?.quarantine).toMatchObject({ passes: false, quarantined: 0 });
    expect(stored[0]).not.toHaveProperty('quarantined');
    expect(end).toMatchObject({ status: 'failed' });
    expect(lines).toContain(
      "testrun: failed: 1 failure is not a quarantined test's: src/cart.test.ts › cart > rounds (its quarantine expired on 2026-01-02)",
    );
  });

  it('when the list cannot be read: quarantines nothing, sends the failure unmarked, and says why', async () => {
    const server = await serverQuarantining();
    server.server.setFaults((request) =>
      request.path.endsWith('/quarantine')
        ? { status: 404, body: { error: { code: 'x', message: 'gone' } } }
        : undefined,
    );
    const { summary, lines, stored, end } = await runOf(server, [FLAKY], undefined, { decidesVerdict: true });
    expect(summary?.quarantine).toMatchObject({ passes: false, quarantined: 0 });
    expect(stored[0]).not.toHaveProperty('quarantined');
    expect(end).toMatchObject({ status: 'failed' });
    expect(lines.find((line) => line.includes('nothing is quarantined'))).toMatch(
      /^testrun: failed: nothing is quarantined: the quarantine list could not be read \(.*404/,
    );
  });

  it('reads nothing where no test failed, or the service announces no quarantine, and says nothing of it', async () => {
    const quarantining = await serverQuarantining();
    const green = await runOf(quarantining, [PASSED], { failedByTestsAlone: true });
    expect(green.reads).toEqual([]);
    expect(green.summary?.quarantine).toBeUndefined();

    const without = await serverQuarantining({ quarantine: false });
    const red = await runOf(without, [FLAKY], undefined, { decidesVerdict: true });
    expect(red.reads).toEqual([]);
    expect(red.summary?.quarantine).toBeUndefined();
    expect(red.stored[0]).not.toHaveProperty('quarantined');
    expect(red.end).toMatchObject({ status: 'failed' });
    expect(red.lines.join('\n')).not.toMatch(/quarantin/);
  });

  it("in a shared run whose handle says the service announced quarantine: reads the run's list and marks", async () => {
    const server = await serverQuarantining();
    const created = await fetch(`${server.url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'core-tests', framework: 'vitest' }),
    });
    const { id, extensions } = (await created.json()) as { id: string; extensions: string[] };
    const handle = formatRunHandle(id, extensions as never);
    const { summary, stored, reads } = await runOf(server, [FLAKY], undefined, {
      options: { runId: handle },
    });
    expect(summary?.quarantine).toMatchObject({ quarantined: 1 });
    expect(stored[0]).toMatchObject({ quarantined: true });
    expect(reads.map((request) => request.path)).toEqual([`/api/v1/runs/${id}/quarantine`]);
  });
});
