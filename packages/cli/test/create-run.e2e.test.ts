import { runCli, startTestServer, type TestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

let started: TestServer | undefined;

function envFor(server: TestServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url, ...extra };
}

describe('testrun create-run', () => {
  it('keeps the key out of its error even when the service echoes it back', async () => {
    started = await startTestServer({
      faults: (req) => ({ status: 401, body: `invalid token ${String(req.headers.authorization)}` }),
    });
    const { code, stderr } = await runCli(['create-run', '--framework', 'vitest'], { env: envFor(started) });
    expect(code).toBe(1);
    expect(stderr).toContain('invalid token Bearer ***');
    expect(stderr).not.toContain(started.apiKey);
  });

  it('creates a run and prints it on stdout: its id, and what the service announced it takes', async () => {
    started = await startTestServer();
    const { code, stdout, stderr } = await runCli(
      ['create-run', '--project', 'web', '--framework', 'vitest', '--tags', 'nightly, e2e'],
      { env: envFor(started) },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [run] = await started.server.store.runs();
    expect(stdout).toBe(
      `${run!.id};extensions=failure-details,complete-run,read-runs,attachments,quarantine;attachment-limits=104857600/1073741824\n`,
    );
    expect(run).toMatchObject({ project: 'web', framework: 'vitest', tags: ['nightly', 'e2e'] });
  });

  it('prints a dotenv line with --env, and the id alone for a service that announces nothing', async () => {
    const printed: string[] = [];
    for (const failureDetails of [true, false]) {
      started = await startTestServer({
        failureDetails,
        completeRun: failureDetails,
        readRuns: failureDetails,
        attachments: failureDetails,
        quarantine: failureDetails,
      });
      const { code, stdout } = await runCli(['create-run', '--framework', 'vitest', '--env'], {
        env: envFor(started),
      });
      expect(code).toBe(0);
      const [run] = await started.server.store.runs();
      printed.push(stdout.replace(run!.id, '<id>'));
    }
    expect(printed).toEqual([
      'TESTRUN_RUN_ID=<id>;extensions=failure-details,complete-run,read-runs,attachments,quarantine;attachment-limits=104857600/1073741824\n',
      'TESTRUN_RUN_ID=<id>\n',
    ]);
  });

  it('adds the CI provider tags unless --no-ci-tags is given', async () => {
    started = await startTestServer();
    const ci = {
      GITHUB_ACTIONS: 'true',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: 'abc',
      GITHUB_RUN_ID: '9',
    };
    await runCli(['create-run', '--framework', 'jest', '--project', 'p'], { env: envFor(started, ci) });
    await runCli(['create-run', '--framework', 'jest', '--project', 'p', '--no-ci-tags'], {
      env: envFor(started, ci),
    });
    expect((await started.server.store.runs()).map((run) => run.tags)).toEqual([
      ['ci:github', 'branch:main', 'commit:abc', 'build:9'],
      [],
    ]);
  });

  it('exits 2 when --framework is missing', async () => {
    started = await startTestServer();
    const { code, stderr } = await runCli(['create-run', '--project', 'web'], { env: envFor(started) });
    expect(code).toBe(2);
    expect(stderr).toContain('--framework is required');
    expect(started.server.requests).toHaveLength(0);
  });

  it('exits 1 naming TESTRUN_API_KEY when it is not set', async () => {
    const { code, stdout, stderr } = await runCli(['create-run', '--framework', 'vitest'], {
      env: { PATH: process.env.PATH },
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('TESTRUN_API_KEY is not set');
  });

  it('exits 1 with the reason, and without the key, when the key is refused', async () => {
    started = await startTestServer();
    const env = envFor(started, { TESTRUN_API_KEY: 'not-the-right-key-5521' });
    const { code, stdout, stderr } = await runCli(['create-run', '--framework', 'vitest'], { env });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /the run could not be created: POST .*\/api\/v1\/runs answered 401.*TESTRUN_API_KEY/,
    );
    expect(stderr).not.toContain('not-the-right-key-5521');
  });
});
