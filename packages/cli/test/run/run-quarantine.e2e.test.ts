import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CLI_BIN,
  cleanEnv,
  runProcess,
  startTestServer,
  type TestServer,
  tempDir,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `testrun run` around a command whose failures are quarantined tests' (docs/design/quarantine.md),
// the command a small Node program named vitest.mjs that reports through core's RunReporter as
// an adapter does and exits as a runner would: what testrun run reads (the parts, the command
// line, the service) and decides. The decision's every variation is a unit test
// (core/test/quarantine/command-verdict.test.ts); real runners, compat/packed/quarantine.test.ts and documented-runs.test.ts.

const CORE = fileURLToPath(new URL('../../../core/dist/index.js', import.meta.url));
const SUITE = 'src/cart.test.ts';
const FLAKY = { testSuite: SUITE, testCase: 'cart > rounds', status: 'failed', duration: 3 };

/** A runner's stand-in: reports FAKE_RESULTS, ends its run as its adapter would, exits FAKE_EXIT. */
const FAKE_RUNNER = `import { RunReporter } from ${JSON.stringify(CORE)};
const reporter = new RunReporter({ options: {}, framework: { name: 'vitest', version: '4.0.0' }, rootDir: process.cwd() });
reporter.startRun();
reporter.addResults(JSON.parse(process.env.FAKE_RESULTS));
await reporter.endRun([], { failed: true, failedByTestsAlone: true });
if (process.env.FAKE_KILL) process.kill(process.pid, 'SIGKILL');
process.exitCode = Number(process.env.FAKE_EXIT ?? 1);
`;

function setUp() {
  const dir = tempDir('testrun-run-quarantine-');
  fs.writeFileSync(path.join(dir, 'vitest.mjs'), FAKE_RUNNER);
  return dir;
}

async function quarantined(server: TestServer) {
  const answer = await fetch(`${server.url}/api/v1/quarantines`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: 'web', testSuite: SUITE, testCase: 'cart > rounds', reason: 'flaky' }),
  });
  expect(answer.status).toBe(201);
}

async function runAround(
  server: TestServer,
  command: string[],
  results: object[],
  extra: Record<string, string> = {},
) {
  const dir = setUp();
  const env = cleanEnv({
    TESTRUN_API_KEY: server.apiKey,
    TESTRUN_BASE_URL: server.url,
    TESTRUN_SPOOL_DIR: path.join(dir, 'spool'),
    TESTRUN_SUMMARY: path.join(dir, 'summary.md'),
    FAKE_RESULTS: JSON.stringify(results),
    ...extra,
  });
  const outcome = await runProcess(process.execPath, [CLI_BIN, 'run', '--project', 'web', '--', ...command], {
    cwd: dir,
    env,
  });
  const [run] = await server.server.store.runs();
  return {
    ...outcome,
    run,
    end: run && (await server.server.store.endOf(run.id)),
    stored: run ? await server.server.store.results(run.id) : [],
    summary: fs.readFileSync(path.join(dir, 'summary.md'), 'utf8'),
  };
}

describe.concurrent('testrun run, a command whose failures are quarantined', () => {
  it('exits 0 when its one runner failed for its quarantined test alone, completes the run and says why', async () => {
    const server = await startTestServer();
    await quarantined(server);
    const { code, stderr, end, stored, run, summary } = await runAround(
      server,
      [process.execPath, 'vitest.mjs'],
      [FLAKY, { ...FLAKY, testCase: 'cart > adds', status: 'passed' }],
    );
    expect(code, stderr).toBe(0);
    expect(end).toMatchObject({ status: 'completed' });
    expect(stored[0]).toMatchObject({ status: 'failed', quarantined: true });
    expect(stderr).toContain(
      'testrun run: passed: 1 quarantined test failed (src/cart.test.ts › cart > rounds)\n',
    );
    expect(stderr).toContain(
      `testrun run: run ${run!.id} marked completed (the command exited 1 for quarantined tests alone: testrun run exits 0)`,
    );
    expect(summary).toMatch(/^### ✅ web · vitest: passed — 1 quarantined failure$/m);
    expect(summary).toContain('cart \\> rounds](');
    expect(summary).toContain('(quarantined)');
  });

  it('keeps the exit code of a command that is more than one runner, saying why', async () => {
    const server = await startTestServer();
    await quarantined(server);
    const { code, stderr, end } = await runAround(
      server,
      ['sh', '-c', `${process.execPath} vitest.mjs; exit 1`],
      [FLAKY],
    );
    expect(code).toBe(1);
    expect(end).toMatchObject({ status: 'failed' });
    expect(stderr).toContain(
      "testrun run: failed: 1 quarantined test failed (src/cart.test.ts › cart > rounds), but the command is not one test runner (sh -c runs more than one command), so testrun cannot tell that nothing else in it failed: the command's exit code stands\n",
    );
  });

  it('keeps the exit code of a runner whose process died without saying how it ended', async () => {
    const server = await startTestServer();
    await quarantined(server);
    const { code, stderr, end } = await runAround(server, [process.execPath, 'vitest.mjs'], [FLAKY], {
      FAKE_KILL: '1',
    });
    expect(code).toBe(137);
    expect(end).toMatchObject({ status: 'failed' });
    expect(stderr).toMatch(
      /^testrun run: failed: the service holds 1 quarantined test's failure of the run, but the command was cancelled, ended by a signal, or did not run: the command's exit code stands$/m,
    );
  });

  it('keeps the exit code when another failure is not quarantined, naming it', async () => {
    const server = await startTestServer();
    await quarantined(server);
    const { code, stderr, stored } = await runAround(
      server,
      [process.execPath, 'vitest.mjs'],
      [FLAKY, { ...FLAKY, testCase: 'cart > adds' }],
    );
    expect(code).toBe(1);
    expect(stored.map((result) => result.quarantined ?? false)).toEqual([true, false]);
    expect(stderr).toContain(
      `testrun run: failed: 1 failure is not a quarantined test's: src/cart.test.ts › cart > adds (not quarantined in project "web"); 1 quarantined test failed too (src/cart.test.ts › cart > rounds)\n`,
    );
  });
});
