import path from 'node:path';
import {
  cleanEnv,
  closedPortUrl,
  createReporter,
  fixtures,
  makeResults,
  runCli,
  startTestServer,
  tempDir,
  traceModules,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// A command's module loads only when it runs: `testrun create-run` in CI must not pay for
// the server (Fastify), and `testrun --help` for no command at all. The built CLI runs with
// a loader hook that records every module it resolves.

const COMMAND_MODULE = /\/packages\/cli\/dist\/commands\/(?!index\.js$)[^/]+\.js$/;
const SERVER_MODULE = /fastify|\/packages\/server\//;
/** The CI summary's bundle (core's dist/summary/index.js), loaded only when a summary is written. */
const SUMMARY_MODULE = /\/packages\/core\/dist\/summary\//;

async function traced(args: string[], env: NodeJS.ProcessEnv = cleanEnv({})) {
  const trace = traceModules();
  const outcome = await runCli(args, { env, nodeArgs: trace.nodeArgs });
  return { ...outcome, urls: trace.urls() };
}

describe('loading of the commands', () => {
  it('lists every command with its summary for --help without loading any command module', async () => {
    const { code, stdout, urls } = await traced(['--help']);

    expect(code).toBe(0);
    expect(stdout).toContain('  create-run   create a run and print its id');
    expect(urls.some((url) => url.endsWith('/packages/cli/dist/commands/index.js'))).toBe(true);
    expect(urls.filter((url) => COMMAND_MODULE.test(url))).toEqual([]);
  });

  it('loads the server, and Fastify with it, for serve', async () => {
    const { code, urls } = await traced(['serve', '--help']);

    expect(code).toBe(0);
    expect(urls.filter((url) => COMMAND_MODULE.test(url)).map((url) => path.basename(url))).toEqual([
      'serve.js',
    ]);
    expect(urls.some((url) => url.includes('/fastify/'))).toBe(true);
  });

  it('creates a run without loading the server or Fastify', async () => {
    const server = await startTestServer();
    const env = cleanEnv({ TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url });

    const { code, stderr, urls } = await traced(['create-run', '--framework', 'vitest'], env);

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(await server.server.store.runs()).toHaveLength(1);
    expect(urls.filter((url) => COMMAND_MODULE.test(url)).map((url) => path.basename(url))).toEqual([
      'create-run.js',
    ]);
    expect(urls.filter((url) => SERVER_MODULE.test(url))).toEqual([]);
  });

  it('loads the CI summary for testrun summary, which writes one', async () => {
    const server = await startTestServer();
    const env = cleanEnv({ TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url });
    const { code, stdout, urls } = await traced(['summary', '--run', 'no-such-run'], env);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^### ❔ /);
    expect(urls.filter((url) => SUMMARY_MODULE.test(url)).map((url) => path.basename(url))).toEqual([
      'index.js',
    ]);
  });

  it('uploads a report without loading the server or Fastify', async () => {
    const server = await startTestServer();
    const spool = tempDir('testrun-loading-');
    const env = cleanEnv({
      TESTRUN_API_KEY: server.apiKey,
      TESTRUN_BASE_URL: server.url,
      TESTRUN_SPOOL_DIR: spool,
    });

    const { code, urls } = await traced(['upload', path.join(fixtures.junit, 'pytest.xml')], env);

    expect(code).toBe(0);
    expect((await server.server.store.allResults()).length).toBeGreaterThan(0);
    expect(urls.filter((url) => COMMAND_MODULE.test(url)).map((url) => path.basename(url))).toEqual([
      'upload.js',
    ]);
    expect(urls.filter((url) => SERVER_MODULE.test(url))).toEqual([]);
    // A reporter (upload's is core's RunReporter) with no summary to write loads none of it.
    expect(urls.filter((url) => SUMMARY_MODULE.test(url))).toEqual([]);
  });

  it('replays a spool without loading the server or Fastify', async () => {
    const server = await startTestServer();
    const { reporter, spoolDir } = createReporter(await closedPortUrl(), server.apiKey, {
      flushTimeout: 300,
    });
    reporter.startRun();
    reporter.addResults(makeResults(3));
    expect(await reporter.endRun()).toMatchObject({ spooled: 3 });
    const env = cleanEnv({ TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url });

    const { code, urls } = await traced(['replay', '--dir', spoolDir, '--ignore-recorded-url'], env);

    expect(code).toBe(0);
    expect(await server.server.store.allResults()).toHaveLength(3);
    expect(urls.filter((url) => COMMAND_MODULE.test(url)).map((url) => path.basename(url))).toEqual([
      'replay.js',
    ]);
    expect(urls.filter((url) => SERVER_MODULE.test(url))).toEqual([]);
  });
});
