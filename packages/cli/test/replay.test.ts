import fs from 'node:fs';
import {
  closedPortUrl,
  createReporter,
  makeResults,
  runCli,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

let started: TestServer | undefined;

/** A spool written by a real session that could not reach its service. */
async function spoolFromDeadServer(
  apiKey: string,
  count: number,
): Promise<{ spoolDir: string; deadUrl: string }> {
  const deadUrl = await closedPortUrl();
  const { reporter, spoolDir } = createReporter(deadUrl, apiKey, { flushTimeout: 300, batchSize: 10 });
  reporter.startRun();
  reporter.addResults(makeResults(count));
  const summary = await reporter.endRun();
  expect(summary).toMatchObject({ spooled: count });
  return { spoolDir, deadUrl };
}

describe('testrun replay', () => {
  it('delivers a spool exactly once, empties it, and finds nothing the second time', async () => {
    started = await startTestServer();
    const { spoolDir } = await spoolFromDeadServer(started.apiKey, 25);
    const env = { PATH: process.env.PATH, TESTRUN_API_KEY: started.apiKey, TESTRUN_BASE_URL: started.url };

    const first = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      `testrun replay: 25 results delivered from 1 spool files; 0 remain in ${spoolDir}\n`,
    );
    expect(fs.readdirSync(spoolDir)).toEqual([]);

    const second = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`testrun replay: nothing to send in ${spoolDir}\n`);

    const [run] = started.server.store.runs();
    expect(started.server.store.runs()).toHaveLength(1);
    const cases = started.server.store.results(run!.id).map((r) => r.testCase);
    expect(new Set(cases).size).toBe(25);
    expect(cases).toHaveLength(25);
  });

  it('gives up at --timeout against a service that keeps asking to retry later, keeping the spool', async () => {
    started = await startTestServer({ faults: () => ({ status: 503, headers: { 'retry-after': '3600' } }) });
    const { spoolDir } = await spoolFromDeadServer(started.apiKey, 5);
    const env = { PATH: process.env.PATH, TESTRUN_API_KEY: started.apiKey, TESTRUN_BASE_URL: started.url };
    const { code, stdout } = await runCli(
      ['replay', '--dir', spoolDir, '--ignore-recorded-url', '--timeout', '1'],
      { env },
    );
    expect(code).toBe(1);
    expect(stdout).toContain('0 results delivered from 1 spool files; 5 remain');
    expect(started.server.requests).toHaveLength(1);
    expect(fs.readdirSync(spoolDir)).toHaveLength(1);
  });

  it('keeps the spool and exits 1 with a clear message when the service is still down', async () => {
    const { spoolDir, deadUrl } = await spoolFromDeadServer('some-key-8812', 5);
    const before = fs.readdirSync(spoolDir);
    const env = { PATH: process.env.PATH, TESTRUN_API_KEY: 'some-key-8812', TESTRUN_BASE_URL: deadUrl };
    const { code, stdout, stderr } = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], {
      env,
    });
    expect(code).toBe(1);
    expect(stdout).toContain('0 results delivered from 1 spool files; 5 remain');
    expect(stderr).toContain('they stay in the spool');
    expect(stderr).toContain('ECONNREFUSED');
    expect(stderr + stdout).not.toContain('some-key-8812');
    expect(fs.readdirSync(spoolDir)).toEqual(before);
  }, 60_000);
});

describe('testrun replay and the service a spool was recorded for', () => {
  it('sends the key only to TESTRUN_BASE_URL: a spool recorded for another service is skipped with one line', async () => {
    started = await startTestServer();
    const { spoolDir, deadUrl } = await spoolFromDeadServer(started.apiKey, 5);
    const env = { PATH: process.env.PATH, TESTRUN_API_KEY: started.apiKey, TESTRUN_BASE_URL: started.url };
    const skipped = await runCli(['replay', '--dir', spoolDir], { env });
    expect(skipped.code).toBe(1);
    expect(skipped.stderr).toContain(`was recorded for ${deadUrl}, not ${started.url}; it was left in place`);
    expect(skipped.stderr).toContain('--ignore-recorded-url');
    expect(skipped.stdout).toContain('0 results delivered from 1 spool files; 5 remain');
    expect(started.server.requests).toEqual([]);

    const sent = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env });
    expect(sent.code).toBe(0);
    expect(started.server.store.allResults()).toHaveLength(5);
  });

  it('needs TESTRUN_BASE_URL, since the key goes nowhere else', async () => {
    const { spoolDir } = await spoolFromDeadServer('some-key-8812', 2);
    const { code, stderr } = await runCli(['replay', '--dir', spoolDir], {
      env: { PATH: process.env.PATH, TESTRUN_API_KEY: 'some-key-8812' },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^testrun replay: option baseUrl \(TESTRUN_BASE_URL\) is required/);
    expect(fs.readdirSync(spoolDir)).toHaveLength(1);
  });
});
