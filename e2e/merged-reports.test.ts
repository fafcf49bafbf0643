import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  copyFixture,
  fixtures,
  identities,
  linkFrameworks,
  type RunOutcome,
  reporterEnv,
  runVitest,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The CI recipe of blob reports: shards write blobs and report nothing, a last job merges
// the blobs and reports the whole run. The merged run must store exactly what one direct
// run of the same tests stores, and never a failure the framework did not report.

/** The results of the one run the server holds whose summary line `outcome` printed. */
function storedBy(server: TestServer, outcome: RunOutcome) {
  const [line] = testrunLines(outcome.stderr);
  const runId = / → run (\S+) /.exec(line ?? '')?.[1];
  expect(runId, `${outcome.stdout}\n${outcome.stderr}`).toBeDefined();
  return identities(server.server.store.results(runId!));
}

describe('Vitest blob reports merged with --merge-reports', () => {
  let server: TestServer;
  let project: string;
  let elsewhere: string;
  let direct: RunOutcome;
  let merged: RunOutcome;
  let mergedElsewhere: RunOutcome;
  let mergedElsewhereAlone: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    // The parity fixture: every mapping case, beforeAll failures and files that fail to load among them.
    project = copyFixture(fixtures.parity);
    elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-merge-elsewhere-'));
    linkFrameworks(elsewhere);
    const env = () => reporterEnv(server);
    direct = await runVitest({ cwd: project, env: env() });
    // `--reporter=blob` replaces the config's reporters: the shards report nothing themselves.
    for (const shard of [1, 2]) {
      await runVitest({ cwd: project, args: ['--reporter=blob', `--shard=${shard}/2`], env: env() });
    }
    fs.cpSync(path.join(project, '.vitest-reports'), path.join(elsewhere, '.vitest-reports'), {
      recursive: true,
    });
    merged = await runVitest({ cwd: project, args: ['--merge-reports'], env: env() });
    const reporterArgs = ['--reporter=default', '--reporter=@testrun/vitest'];
    mergedElsewhere = await runVitest({
      cwd: elsewhere,
      args: ['--merge-reports', ...reporterArgs],
      env: env(),
    });
    mergedElsewhereAlone = await runVitest({
      cwd: elsewhere,
      args: ['--merge-reports', '--reporter=default'],
    });
  }, 2 * AWAIT_RUNS_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    for (const dir of [project, elsewhere]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores, merged in the shards’ folder, exactly what the direct run stores', () => {
    // Three runs: the direct one and the two merges; the shards created none.
    expect(server.server.store.runs()).toHaveLength(3);
    expect(storedBy(server, merged)).toEqual(storedBy(server, direct));
  });

  it('stores, merged in another folder, the direct results and no file failure Vitest did not report', () => {
    // Vitest names files from its root, here the other folder: the shards' folder becomes part of the name.
    const prefix = `${path.basename(project)}/`;
    const expected = storedBy(server, direct).map((result) => ({
      ...result,
      testSuite: prefix + result.testSuite,
    }));
    expect(storedBy(server, mergedElsewhere)).toEqual(expected);
  });

  it('leaves the exit code of a merge in another folder as Vitest sets it', () => {
    // Vitest finds no test file of its own there and says so, with exit code 1.
    expect(mergedElsewhereAlone.stdout + mergedElsewhereAlone.stderr).toContain('No test files found');
    expect([mergedElsewhere.code, mergedElsewhereAlone.code]).toEqual([1, 1]);
  });
});
