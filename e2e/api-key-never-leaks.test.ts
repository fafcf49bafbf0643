import fs from 'node:fs';
import path from 'node:path';
import {
  closedPortUrl,
  FRAMEWORKS,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  runCli,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// One distinctive key, sent through every path that prints, logs, spools or fails, with
// debug logging on; then everything those paths produced is searched for it.
const KEY = 'trk_LEAKCHECK_5f1e9a7c3b2d';

/** Every server of the test, to search what each received; each closes when the test ends. */
const servers: TestServer[] = [];

async function server(options: Parameters<typeof startTestServer>[0] = {}) {
  const started = await startTestServer({ apiKey: KEY, ...options });
  servers.push(started);
  return started;
}

function spoolText(dir: string | undefined): string {
  if (!dir || !fs.existsSync(dir)) return '';
  return fs
    .readdirSync(dir)
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
    .join('\n');
}

describe('the API key', () => {
  it('appears in no output, log, spool file or error message, with TESTRUN_DEBUG=1', async () => {
    const collected: string[] = [];
    const spoolDirs: string[] = [];
    const debugEnv = (target: { url: string }, extra: Record<string, string> = {}) => {
      const env = reporterEnv({ url: target.url, apiKey: KEY }, { TESTRUN_DEBUG: '1', ...extra });
      spoolDirs.push(env.TESTRUN_SPOOL_DIR!);
      return env;
    };

    const healthy = await server();
    const refusing = await server({ faults: () => ({ status: 401 }) });
    const dead = { url: await closedPortUrl() };

    for (const { run, fixtures } of FRAMEWORKS) {
      const outcomes = await Promise.all([
        run({ cwd: fixtures.parity, env: debugEnv(healthy) }),
        run({ cwd: fixtures.passing, env: debugEnv(refusing) }),
        run({
          cwd: fixtures.passing,
          env: debugEnv(dead, { [REPORTER_OPTIONS_VAR]: '{"flushTimeout":800}' }),
        }),
        run({
          cwd: fixtures.passing,
          env: debugEnv(healthy, { [REPORTER_OPTIONS_VAR]: '{"batchSize":"x"}' }),
        }),
        run({ cwd: fixtures.passing, env: debugEnv({ url: 'http://testrun.example.com' }) }),
      ]);
      for (const outcome of outcomes) collected.push(outcome.stdout, outcome.stderr);
    }

    const cliEnv = (target: { url: string }) => ({
      PATH: process.env.PATH,
      TESTRUN_API_KEY: KEY,
      TESTRUN_BASE_URL: target.url,
      TESTRUN_DEBUG: '1',
    });
    for (const target of [healthy, refusing]) {
      const created = await runCli(['create-run', '--framework', 'vitest'], { env: cliEnv(target) });
      collected.push(created.stdout, created.stderr);
    }
    for (const dir of spoolDirs) collected.push(spoolText(dir));
    const deadSpools = spoolDirs.filter((dir) => spoolText(dir).includes('"type":"batch"'));
    for (const target of [refusing, healthy]) {
      for (const dir of deadSpools) {
        const replayed = await runCli(['replay', '--dir', dir, '--ignore-recorded-url'], {
          env: cliEnv(target),
        });
        collected.push(replayed.stdout, replayed.stderr, spoolText(dir));
      }
    }
    for (const started of servers) collected.push(JSON.stringify(started.server.requests));

    const everything = collected.join('\n');
    // The paths really ran: requests were authorized with the key, debug lines and errors were printed.
    expect(healthy.server.requests.some((request) => request.authorized)).toBe(true);
    expect(everything).toContain('testrun: POST http://127.0.0.1');
    expect(everything).toContain('TESTRUN_API_KEY');
    expect(everything).toContain('ECONNREFUSED');
    expect(everything).toContain('option batchSize must be');
    expect(everything).toContain('must use https://');
    expect(deadSpools.length).toBeGreaterThan(0);
    expect(everything).not.toContain(KEY);
  });
});
