import fs from 'node:fs';
import path from 'node:path';
import {
  type CollectionServer,
  npmEnv as consumerEnv,
  PUBLISHED_PACKAGES as PACKAGES,
  packageName,
  readSpoolLines,
  runProcess as run,
  runTestCafeCommand,
  startCollectionServer,
  startTestServer,
  TESTCAFE_RUN_TIMEOUT_MS,
  untilTestCafeOpensItsBrowsers,
} from '@testrun/test-utils';
import { readSummary } from '@testrun/test-utils/gfm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bin,
  envFor,
  INSTALL_TIMEOUT_MS,
  type InstalledConsumer,
  installedConsumer,
  README_CODE_DIR,
  removeScratch,
  summaryFile,
} from './consumer.js';
import {
  byCase,
  DOCUMENTED_RUNS,
  mathResults,
  quarantine,
  RUNNABLE_RUNS,
  type RunContext,
  writeDocumentedRun,
} from './documented-runs.js';

// The packed packages installed with npm outside the workspace (consumer.ts), loaded by real
// Vitest, Jest, Playwright, Mocha, Jasmine, Newman, Cucumber, TestCafe and `node --test` and
// the installed CLI, configured and run exactly as README.md and the package READMEs say: their
// config blocks and commands are read from the pages (documented-runs.ts).

let consumer: InstalledConsumer;
/** What the Newman runs' collections call: started before any documented run is written. */
let collectionServer: CollectionServer;
const context: RunContext = {
  get collectionUrl() {
    return collectionServer.url;
  },
};

beforeAll(async () => {
  collectionServer = await startCollectionServer();
  consumer = await installedConsumer();
  // Each written once, before the tests that run in them side by side.
  for (const documentedRun of DOCUMENTED_RUNS) writeDocumentedRun(documentedRun, context);
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await collectionServer?.close();
  removeScratch();
});

// Each test has a server of its own and runs in a folder of its own: they run side by side
// (Vitest's maxConcurrency, five, at a time).
describe.concurrent('installed from the tarballs with npm, outside the workspace', () => {
  it('took every @testrun package from its tarball, none from the registry', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(consumer.dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string }>;
    };
    const ours = Object.entries(lock.packages).filter(([location]) => location.includes('@testrun/'));
    expect(ours.map(([location]) => location).sort()).toEqual(
      PACKAGES.map((dir) => `node_modules/${packageName(dir)}`).sort(),
    );
    for (const [location, entry] of ours) {
      expect(entry.resolved, location).toMatch(/^file:.*\.tgz$/);
    }
    expect(consumer.installStderr).not.toMatch(/ERESOLVE|peer dep/i);
  });

  // Every documented way to configure or run a reporter, taken verbatim from its page; the
  // README's quick start for each runner the way its CI section says, under `testrun run`.
  it.each(RUNNABLE_RUNS)(
    '$dir: the documented $framework setup, run as written, stores every result',
    async (documentedRun) => {
      const dir = path.join(consumer.dir, documentedRun.dir);
      const attempt = async () => {
        const server = await startTestServer();
        if (documentedRun.quarantined) await quarantine(server, documentedRun);
        const env = envFor(
          server,
          documentedRun.underTestrunRun ? { GITHUB_STEP_SUMMARY: summaryFile() } : {},
        );
        const [program, ...args] = [
          // The run is testrun run's: its project is given to it, as docs/ci.md says.
          ...(documentedRun.underTestrunRun
            ? [bin('testrun'), 'run', '--project', documentedRun.project, '--']
            : []),
          ...documentedRun.command(),
        ];
        const outcome =
          documentedRun.framework === 'testcafe'
            ? await runTestCafeCommand(program!, args, { cwd: dir, env })
            : await run(program!, args, { cwd: dir, env });
        return { server, env, outcome };
      };
      const { server, env, outcome } =
        documentedRun.framework === 'testcafe'
          ? await untilTestCafeOpensItsBrowsers(attempt)
          : await attempt();
      const output = outcome.stdout + outcome.stderr;

      const stored = await server.server.store.runs();
      expect(
        stored.map((storedRun) => ({
          project: storedRun.project,
          framework: storedRun.framework,
          tags: storedRun.tags,
        })),
        output,
      ).toEqual([{ project: documentedRun.project, framework: documentedRun.framework, tags: [] }]);
      const results = await server.server.store.results(stored[0]!.id);
      expect(
        results.map(({ testSuite, testCase, status }) => ({ testSuite, testCase, status })).sort(byCase),
        output,
      ).toEqual(mathResults(documentedRun));
      for (const result of results) expect(result.duration).toBeGreaterThanOrEqual(0);
      expect(output).toContain(`testrun: 5 results → run ${stored[0]!.id}`);
      expect(readSpoolLines(env.TESTRUN_SPOOL_DIR!)).toEqual([]);
      const runId = stored[0]!.id;
      const failed = results.find((result) => result.status === 'failed')!;
      if (!documentedRun.quarantined) {
        // One test fails on purpose: the framework's exit code, unchanged by the reporter.
        expect(outcome.code, output).toBe(documentedRun.failedExitCode ?? 1);
        return;
      }
      // That test is quarantined: it ran, failed, and is stored failed, marked, with why; the
      // build passes (docs/quarantine.md), under testrun run or in Playwright's or Mocha's own process.
      expect(outcome.code, output).toBe(0);
      expect(failed).toMatchObject({ quarantined: true, details: { message: expect.any(String) } });
      expect(await server.server.store.endOf(runId)).toMatchObject({ status: 'completed' });
      const passedLine = `passed: 1 quarantined test failed (${failed.testSuite} › ${failed.testCase})`;
      if (!documentedRun.underTestrunRun) {
        expect(output).toContain(`testrun: ${passedLine}\n`);
        return;
      }
      // testrun run created the run, the reporter sent into it, and testrun run ended it.
      expect(server.server.requests.filter((request) => request.route === 'completeRun')).toHaveLength(1);
      expect(output).toContain(`testrun run: ${passedLine}\n`);
      expect(output).toMatch(
        new RegExp(`^testrun run: run ${runId} marked completed \\(the command exited`, 'm'),
      );
      // Its summary counts what the service stored, and still names the failed test with why.
      const summary = readSummary(fs.readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8'));
      expect(summary.heading).toBe(
        `✅ ${documentedRun.project} · ${documentedRun.framework}: passed — 1 quarantined failure`,
      );
      expect(summary.counts).toMatchObject({ ...countsOf(results), quarantined: 1, tests: results.length });
      expect(summary.tables['Why it failed']?.map((row) => row.cells)).toEqual([
        [`${failed.testCase} (quarantined)`, failed.testSuite, firstLine(failed.details?.message)],
      ]);
    },
    // A TestCafe run may take three attempts (untilTestCafeOpensItsBrowsers): as written, the
    // README's command waits TestCafe's own minutes for a Chromium that never connects (a CI run
    // sat 180 s without a line).
    TESTCAFE_RUN_TIMEOUT_MS,
  );

  it('under testrun run, a command that passes exits 0 and its run is completed', async () => {
    const server = await startTestServer();
    const env = envFor(server, { GITHUB_STEP_SUMMARY: summaryFile() });
    const outcome = await run(
      bin('testrun'),
      ['run', '--project', 'api', '--', bin('mocha'), '--grep', 'adds'],
      {
        cwd: path.join(consumer.dir, 'readme-mocharc'),
        env,
      },
    );
    const output = outcome.stdout + outcome.stderr;
    expect(outcome.code, output).toBe(0);
    const [stored, ...others] = await server.server.store.runs();
    expect(others).toEqual([]);
    expect(identitiesOf(await server.server.store.results(stored!.id))).toEqual([
      { testSuite: 'test/math.test.js', testCase: 'Math > adds', status: 'passed' },
    ]);
    expect(await server.server.store.endOf(stored!.id)).toMatchObject({ status: 'completed' });
    expect(readSummary(fs.readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8'))).toMatchObject({
      heading: `✅ api · mocha: completed`,
      counts: { passed: 1, tests: 1 },
    });
  });

  it("runs the core README's RunReporter example as written: one result stored", async () => {
    const server = await startTestServer();
    const outcome = await run(process.execPath, ['core-readme-run-reporter.mjs'], {
      cwd: path.join(consumer.dir, README_CODE_DIR),
      env: envFor(server),
    });
    const output = outcome.stdout + outcome.stderr;

    expect(outcome.code, output).toBe(0);
    const stored = await server.server.store.runs();
    expect(
      stored.map((storedRun) => ({ project: storedRun.project, framework: storedRun.framework })),
      output,
    ).toEqual([{ project: 'shop', framework: 'mocha' }]);
    expect(
      (await server.server.store.results(stored[0]!.id)).map(({ testSuite, testCase, status, duration }) => ({
        testSuite,
        testCase,
        status,
        duration,
      })),
    ).toEqual([{ testSuite: 'test/cart.test.js', testCase: 'cart > adds', status: 'passed', duration: 3 }]);
    expect(output).toContain(`testrun: 1 result → run ${stored[0]!.id}`);
  });

  it("runs the server README's example as written: it starts, lists what arrived and closes", async () => {
    const outcome = await run(process.execPath, ['server-readme-use.mjs'], {
      cwd: path.join(consumer.dir, README_CODE_DIR),
      env: consumerEnv(),
    });

    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
  });

  it('runs the installed testrun command', async () => {
    const server = await startTestServer();
    const testrun = bin('testrun');

    const help = await run(testrun, ['--help'], { cwd: consumer.dir, env: consumerEnv() });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: testrun <command>');

    const created = await run(testrun, ['create-run', '--framework', 'vitest', '--project', 'p'], {
      cwd: consumer.dir,
      env: envFor(server),
    });
    expect(created.code, created.stderr).toBe(0);
    // The run as shards need it: its id, then what the service announced.
    const [id = '', announced] = created.stdout.trim().split(';');
    expect(announced).toBe('extensions=failure-details,complete-run,read-runs,attachments,quarantine');
    expect(await server.server.store.run(id)).toMatchObject({ id, project: 'p', framework: 'vitest' });

    // The form every spool line prints resolves to the installed CLI (`--no`: never the registry).
    const replay = await run('npx', ['--no', '@testrun/cli', 'replay'], {
      cwd: consumer.dir,
      env: envFor(server),
    });
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout + replay.stderr).toMatch(/^testrun replay: nothing to send in /m);
  });
});

function countsOf(results: readonly { status: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) counts[result.status] = (counts[result.status] ?? 0) + 1;
  return counts;
}

function firstLine(text = ''): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? ''
  ).replace(/\s+/g, ' ');
}

function identitiesOf(results: readonly { testSuite: string; testCase: string; status: string }[]) {
  return results.map(({ testSuite, testCase, status }) => ({ testSuite, testCase, status }));
}
