import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  fixtures,
  frameworkBin,
  type RunOutcome,
  reporterEnv,
  runJest,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Jest older than 29.7, forced past the peer range. Jest 24 (compat/jest-24) constructs
// whatever require() returns, without looking for a default export: it used to stop the
// whole run with "Reporter is not a constructor".

const installDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'jest-24');

describe('the reporter under Jest 24, which it does not support', () => {
  let server: TestServer;
  let outcome: RunOutcome;
  let outcomeWithoutReporter: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    const cwd = path.join(installDir, 'fixture', 'passing');
    fs.rmSync(cwd, { recursive: true, force: true });
    fs.cpSync(fixtures.passing, cwd, { recursive: true });
    const bin = frameworkBin('jest', installDir);
    [outcome, outcomeWithoutReporter] = await Promise.all([
      runJest({ cwd, bin, env: reporterEnv(server) }),
      runJest({ cwd, bin, withoutReporter: true }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('prints one line naming the supported range and reports nothing', () => {
    expect(testrunLines(outcome.stderr)).toEqual([
      'testrun: reporting is off: Jest 24.9.0 is not supported; @testrun/jest needs jest ^29.7.0 || ^30.0.0. The tests run as usual.',
    ]);
    expect(server.server.requests).toEqual([]);
  });

  it('lets the tests run, with the exit code they give without the reporter', () => {
    expect(outcome.stderr).toMatch(/Tests: +1 skipped, 1 todo, 5 passed, 7 total/);
    expect(outcome.stderr).not.toContain('is not a constructor');
    expect([outcome.code, outcomeWithoutReporter.code]).toEqual([0, 0]);
  });
});
