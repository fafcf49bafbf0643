import fs from 'node:fs';
import path from 'node:path';
import {
  closedPortUrl,
  fixtures,
  frameworksHere,
  REPORTER_OPTIONS_VAR,
  reporterEnv,
  runCli,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// One distinctive key, sent through every path that prints, logs, spools or fails, with
// debug logging on; then everything those paths produced is searched for it, in every form a
// service could echo it in. `+`, `/` and `=` are what JSON encoders escape differently.
const KEY = 'trk+LEAK/CHECK=5f1e9a7c3b2d';

/** The key with `+`, `/` and `=` written `\u002B`, as ASP.NET's System.Text.Json writes them. */
function systemTextJson(text: string, lowerHex = false): string {
  return text.replace(/[+/=]/g, (character) => {
    const hex = character.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${lowerHex ? hex : hex.toUpperCase()}`;
  });
}

const FORMS_OF_THE_KEY = [KEY, systemTextJson(KEY), systemTextJson(KEY, true), encodeURIComponent(KEY)];

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
    // Echoes the Authorization header in its error body, as an ASP.NET service's problem details might.
    const echoing = await server({
      faults: (request) => ({
        status: 400,
        body: systemTextJson(JSON.stringify({ title: 'bad', header: request.headers.authorization })),
      }),
    });
    const dead = { url: await closedPortUrl() };

    for (const { name, run, fixtures: own } of frameworksHere()) {
      const runs = [
        // Every adapter's own output: each request logged (TESTRUN_DEBUG), and an error body
        // the service echoed the key in, quoted.
        run({ cwd: own.parity, env: debugEnv(healthy) }),
        run({ cwd: own.passing, env: debugEnv(echoing) }),
      ];
      // The paths core takes alike under every adapter (a refused key, a dead service, a bad
      // option, an http:// service, a key in the address): under Vitest and under Mocha (its
      // CommonJS entry, its options strings), not again under each framework (35 runs were 20).
      if (name === 'vitest' || name === 'mocha') {
        runs.push(
          run({ cwd: own.passing, env: debugEnv(refusing) }),
          run({
            cwd: own.passing,
            env: debugEnv(dead, { [REPORTER_OPTIONS_VAR]: '{"flushTimeout":800}' }),
          }),
          run({
            cwd: own.passing,
            env: debugEnv(healthy, { [REPORTER_OPTIONS_VAR]: '{"batchSize":"x"}' }),
          }),
          run({ cwd: own.passing, env: debugEnv({ url: 'http://testrun.example.com' }) }),
          // A service that takes the key in its address too: the spool records where to replay, without it.
          run({
            cwd: own.passing,
            env: debugEnv(
              { url: `${dead.url}/tenants/${KEY}` },
              { [REPORTER_OPTIONS_VAR]: '{"flushTimeout":800}' },
            ),
          }),
        );
      }
      for (const outcome of await Promise.all(runs)) collected.push(outcome.stdout, outcome.stderr);
    }

    const cliEnv = (target: { url: string }) => ({
      PATH: process.env.PATH,
      TESTRUN_API_KEY: KEY,
      TESTRUN_BASE_URL: target.url,
      TESTRUN_DEBUG: '1',
    });
    for (const target of [healthy, refusing, echoing]) {
      const created = await runCli(['create-run', '--framework', 'vitest'], { env: cliEnv(target) });
      const uploaded = await runCli(['upload', path.join(fixtures.junit, 'pytest.xml')], {
        env: cliEnv(target),
      });
      collected.push(created.stdout, created.stderr, uploaded.stdout, uploaded.stderr);
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
    expect(everything).toContain('answered 400');
    for (const form of FORMS_OF_THE_KEY) expect(everything).not.toContain(form);
    // 20 framework runs, 3 servers' CLI commands and the replays: minutes on a loaded 2-core machine.
  }, 360_000);
});
