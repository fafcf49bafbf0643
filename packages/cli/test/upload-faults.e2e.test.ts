import fs from 'node:fs';
import path from 'node:path';
import {
  cleanEnv,
  closedPortUrl,
  fixtures,
  identities,
  PYTEST_RESULTS,
  runCli,
  startTestServer,
  tempDir,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `testrun upload` goes through core's RunReporter, so a service that misbehaves is met
// as the reporters meet it: retried, spooled, replayable. Each fault is injected into a
// real server.

const pytestReport = path.join(fixtures.junit, 'pytest.xml');

function spoolDir(): string {
  return tempDir('testrun-upload-spool-');
}

function env(url: string, apiKey: string, spool: string) {
  return cleanEnv({ TESTRUN_API_KEY: apiKey, TESTRUN_BASE_URL: url, TESTRUN_SPOOL_DIR: spool });
}

// Each test has a server and a spool of its own, and mostly waits on retries: they run side by side.
describe.concurrent('testrun upload when the service misbehaves', () => {
  it('retries 5xx answers and stores every result exactly once', async () => {
    const server = await startTestServer({
      faults: ({ route, n }) =>
        (route === 'createRun' && n === 0) || (route === 'submitResults' && n < 2)
          ? { status: 503 }
          : undefined,
    });
    const { code, stderr } = await runCli(['upload', pytestReport], {
      env: env(server.url, server.apiKey, spoolDir()),
    });

    expect(code).toBe(0);
    const [run] = await server.server.store.runs();
    expect(await server.server.store.runs()).toHaveLength(1);
    expect(identities(await server.server.store.results(run!.id))).toEqual(identities(PYTEST_RESULTS));
    const statuses = (route: string) =>
      server.server.requests.filter((request) => request.route === route).map((request) => request.status);
    expect(statuses('createRun')).toEqual([503, 201]);
    expect(statuses('submitResults').slice(0, 2)).toEqual([503, 503]);
    expect(statuses('submitResults').slice(2)).not.toContain(503);
    expect(stderr).toMatch(new RegExp(`testrun: 12 results → run ${run!.id} \\(\\d+ requests, `));
  });

  it('spools everything when the service is down, exits 0, and a replay delivers it once', async () => {
    const spool = spoolDir();
    const deadUrl = await closedPortUrl();
    const apiKey = 'upload-key-4411';
    const upload = await runCli(['upload', pytestReport, '--project', 'shop-api'], {
      env: env(deadUrl, apiKey, spool),
    });

    expect(upload.code).toBe(0);
    expect(upload.stderr).toContain('ECONNREFUSED');
    expect(upload.stderr).toMatch(
      /testrun: 0 results → run \(not created\) .*; 12 spooled to .*: send them with `npx @testrun\/cli replay --dir /,
    );
    expect(upload.stderr + upload.stdout).not.toContain(apiKey);
    expect(fs.readFileSync(path.join(spool, fs.readdirSync(spool)[0]!), 'utf8')).not.toContain(apiKey);

    // The service is back at another address: the spool was recorded for the dead one.
    const server = await startTestServer({ apiKey });
    const replayEnv = env(server.url, apiKey, spool);
    const replay = ['replay', '--dir', spool, '--ignore-recorded-url'];
    const first = await runCli(replay, { env: replayEnv });
    const second = await runCli(replay, { env: replayEnv });

    expect([first.code, second.code]).toEqual([0, 0]);
    const runs = await server.server.store.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ project: 'shop-api', framework: 'pytest' });
    expect(identities(await server.server.store.results(runs[0]!.id))).toEqual(identities(PYTEST_RESULTS));
  }, 60_000);

  it('exits 1 naming TESTRUN_API_KEY when the service refuses the key, spooling the results unprinted', async () => {
    const server = await startTestServer({ apiKey: 'the-right-key-9021' });
    const spool = spoolDir();
    const wrongKey = 'a-wrong-key-5532';
    const { code, stdout, stderr } = await runCli(['upload', pytestReport], {
      env: env(server.url, wrongKey, spool),
    });

    expect(code).toBe(1);
    expect(stderr).toContain('the service refused the API key: POST');
    expect(stderr).toContain(
      'testrun upload: TESTRUN_API_KEY was refused: the results are spooled, but a replay needs a key the service takes.\n',
    );
    expect(stderr).toMatch(/12 spooled to /);
    expect(stdout + stderr).not.toContain(wrongKey);
    expect(server.server.requests.map((request) => request.status)).toEqual([401]);
    expect(await server.server.store.runs()).toEqual([]);
    for (const file of fs.readdirSync(spool)) {
      expect(fs.readFileSync(path.join(spool, file), 'utf8')).not.toContain(wrongKey);
    }
  });
});
