import fs from 'node:fs';
import path from 'node:path';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  copyFixture,
  fixtures,
  identities,
  linkFrameworks,
  mergePlaywrightReports,
  playwrightFixtures,
  type RunOutcome,
  reporterEnv,
  runPlaywright,
  runsLegsOf,
  runVitest,
  startTestServer,
  type TestServer,
  tempDir,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The CI recipe of blob reports: shards write blobs and report nothing, a last job merges
// the blobs and reports the whole run. The merged run must store exactly what one direct
// run of the same tests stores, and never a failure the framework did not report.

/** The results of the one run the server holds whose summary line `outcome` printed. */
async function storedBy(server: TestServer, outcome: RunOutcome) {
  const runId = testrunLines(outcome.stderr)
    .map((line) => / → run (\S+) /.exec(line)?.[1])
    .find((id) => id !== undefined);
  expect(runId, `${outcome.stdout}\n${outcome.stderr}`).toBeDefined();
  return identities(await server.server.store.results(runId!));
}

if (runsLegsOf('vitest'))
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
      elsewhere = tempDir('testrun-merge-elsewhere-');
      linkFrameworks(elsewhere);
      const env = () => reporterEnv(server);
      // The direct run beside the shards; the three merges once both shards are done, side by side.
      // `--reporter=blob` replaces the config's reporters: the shards report nothing themselves.
      [direct] = await Promise.all([
        runVitest({ cwd: project, env: env() }),
        ...[1, 2].map((shard) =>
          runVitest({ cwd: project, args: ['--reporter=blob', `--shard=${shard}/2`], env: env() }),
        ),
      ]);
      fs.cpSync(path.join(project, '.vitest-reports'), path.join(elsewhere, '.vitest-reports'), {
        recursive: true,
      });
      const reporterArgs = ['--reporter=default', '--reporter=@testrun/vitest'];
      [merged, mergedElsewhere, mergedElsewhereAlone] = await Promise.all([
        runVitest({ cwd: project, args: ['--merge-reports'], env: env() }),
        runVitest({ cwd: elsewhere, args: ['--merge-reports', ...reporterArgs], env: env() }),
        runVitest({ cwd: elsewhere, args: ['--merge-reports', '--reporter=default'] }),
      ]);
    }, 2 * AWAIT_RUNS_TIMEOUT_MS);

    afterAll(async () => {
      await server?.close();
      for (const dir of [project, elsewhere]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('stores, merged in the shards’ folder, exactly what the direct run stores', async () => {
      // Three runs: the direct one and the two merges; the shards created none.
      expect(await server.server.store.runs()).toHaveLength(3);
      expect(await storedBy(server, merged)).toEqual(await storedBy(server, direct));
    });

    it('stores, merged in another folder, the direct results and no file failure Vitest did not report', async () => {
      // Vitest names files from its root, here the other folder: the shards' folder becomes part of the name.
      const prefix = `${path.basename(project)}/`;
      const expected = (await storedBy(server, direct)).map((result) => ({
        ...result,
        testSuite: prefix + result.testSuite,
      }));
      expect(await storedBy(server, mergedElsewhere)).toEqual(expected);
    });

    it('leaves the exit code of a merge in another folder as Vitest sets it', () => {
      // Vitest finds no test file of its own there and says so, with exit code 1.
      expect(mergedElsewhereAlone.stdout + mergedElsewhereAlone.stderr).toContain('No test files found');
      expect([mergedElsewhere.code, mergedElsewhereAlone.code]).toEqual([1, 1]);
    });
  });

if (runsLegsOf('playwright'))
  describe('Playwright blob reports merged with merge-reports', () => {
    let server: TestServer;
    let project: string;
    const temporary: string[] = [];

    beforeAll(async () => {
      server = await startTestServer();
      // Two projects, desktop and mobile (one-project.config.mjs: chromium), of two spec files.
      project = copyFixture(playwrightFixtures.merged);
      temporary.push(project);
    });

    afterAll(async () => {
      await server?.close();
      for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
    });

    /**
     * Runs each shard with `--reporter=blob`, which replaces the config's reporters, into a
     * folder of its own as on a CI machine of its own; returns the folder their blobs are
     * gathered in, as the merging job downloads them.
     */
    async function blobsOf(shards: { args: string[]; env?: Record<string, string> }[], cwd = project) {
      const root = tempDir('testrun-blobs-');
      temporary.push(root);
      const gathered = path.join(root, 'all');
      fs.mkdirSync(gathered);
      await Promise.all(
        shards.map(async ({ args, env }, index) => {
          const machine = path.join(root, `shard-${index + 1}`);
          const outcome = await runPlaywright({
            cwd,
            args: [...args, '--reporter=blob'],
            env: { ...env, PLAYWRIGHT_BLOB_OUTPUT_DIR: machine },
          });
          expect(testrunLines(outcome.stderr), outcome.stderr).toEqual([]);
          for (const blob of fs.readdirSync(machine))
            fs.copyFileSync(path.join(machine, blob), path.join(gathered, blob));
        }),
      );
      return gathered;
    }

    const merge = (dir: string, cwd = project) =>
      mergePlaywrightReports({
        cwd,
        dir,
        args: ['--reporter=@testrun/playwright'],
        env: reporterEnv(server),
      });

    it(
      'names one named project merged from two blobs as its direct run does: without a label',
      async () => {
        const config = ['-c', 'one-project.config.mjs'];
        const [direct, blobs] = await Promise.all([
          runPlaywright({ cwd: project, args: config, env: reporterEnv(server) }),
          blobsOf([{ args: [...config, '--shard=1/2'] }, { args: [...config, '--shard=2/2'] }]),
        ]);
        const merged = await merge(blobs);

        expect(await storedBy(server, merged)).toEqual(await storedBy(server, direct));
        expect(await storedBy(server, merged)).toContainEqual({
          testSuite: 'cart.test.js',
          testCase: 'cart > adds an item',
          status: 'passed',
        });
        expect(testrunLines(merged.stderr)).toHaveLength(1);
      },
      AWAIT_RUNS_TIMEOUT_MS,
    );

    it(
      'names a --project run of a two-project config, merged, as its direct run does: with the label',
      async () => {
        const filter = ['--project=desktop'];
        const [direct, blobs] = await Promise.all([
          runPlaywright({ cwd: project, args: filter, env: reporterEnv(server) }),
          blobsOf([{ args: filter }]),
        ]);
        const merged = await merge(blobs);

        expect(await storedBy(server, merged)).toEqual(await storedBy(server, direct));
        expect(await storedBy(server, merged)).toContainEqual({
          testSuite: '[desktop] cart.test.js',
          testCase: 'cart > adds an item',
          status: 'passed',
        });
        // The shards' configuration was read: no line says it could not be.
        expect(testrunLines(merged.stderr)).toHaveLength(1);
      },
      AWAIT_RUNS_TIMEOUT_MS,
    );

    it(
      'names the results of two shards, one whose web server failed, as the shards’ direct runs do',
      async () => {
        // Shard 1 runs the desktop project's tests; shard 2, the mobile ones, fails before any test.
        const shards = [
          { args: ['--shard=1/2'] },
          { args: ['--shard=2/2'], env: { FIXTURE_WEB_SERVER_FAILS: '1' } },
        ];
        const [directs, blobs] = await Promise.all([
          Promise.all(
            shards.map(({ args, env }) =>
              runPlaywright({ cwd: project, args, env: reporterEnv(server, env) }),
            ),
          ),
          blobsOf(shards),
        ]);
        const merged = await merge(blobs);

        const direct: Awaited<ReturnType<typeof storedBy>> = [];
        for (const outcome of directs) direct.push(...(await storedBy(server, outcome)));
        expect(await storedBy(server, merged)).toEqual(identities(direct));
        expect(await storedBy(server, merged)).toContainEqual({
          testSuite: '(run)',
          testCase:
            '(unhandled error) Error: Process from config.webServer was not able to start. Exit code: 1',
          status: 'failed',
        });
        expect(await storedBy(server, merged)).toContainEqual({
          testSuite: '[desktop] cart.test.js',
          testCase: 'cart > adds an item',
          status: 'passed',
        });
      },
      AWAIT_RUNS_TIMEOUT_MS,
    );

    it(
      'says so when the shards’ configuration is not where the blobs name it, and labels by the blobs',
      async () => {
        const gone = copyFixture(playwrightFixtures.merged);
        temporary.push(gone);
        const blobs = await blobsOf([{ args: ['--project=desktop'] }], gone);
        fs.rmSync(path.join(gone, 'playwright.config.mjs'));
        const merged = await merge(blobs, gone);

        expect(testrunLines(merged.stderr)).toEqual([
          expect.stringContaining(
            `merge-reports: could not count the projects of the configuration the shards ran (${path.join(gone, 'playwright.config.mjs')} is not there)`,
          ),
          expect.stringMatching(/^testrun: 4 results → run /),
        ]);
        expect(await storedBy(server, merged)).toContainEqual({
          testSuite: 'cart.test.js',
          testCase: 'cart > adds an item',
          status: 'passed',
        });
      },
      AWAIT_RUNS_TIMEOUT_MS,
    );
  });
