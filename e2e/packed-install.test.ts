import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type CollectionServer,
  closedPortUrl,
  npmEnv as consumerEnv,
  FIXTURES_DIR,
  jsonFile as json,
  PUBLISHED_PACKAGES as PACKAGES,
  PACKAGES_DIR,
  type PackageDir,
  packageName,
  packTarballs,
  type RunOutcome,
  readSpoolLines,
  reporterEnv,
  runProcess as run,
  startCollectionServer,
  startTestServer,
  succeeded,
  type TestServer,
  testcafeBrowserMissing,
  untilTestCafeOpensItsBrowsers,
  writeFiles,
} from '@testrun/test-utils';
import { readSummary } from '@testrun/test-utils/gfm';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlock } from '../test/doc-blocks.js';

// What a user gets from the registry: each package packed the way `pnpm release` publishes
// it, installed with plain npm into a project outside the workspace (no workspace links, no
// hoisted dev dependencies), then loaded by real Vitest, Jest, Playwright, Mocha, Jasmine,
// Newman and `node --test` and the installed CLI, configured and run exactly as README.md and the
// package READMEs say: their config blocks and commands are read from the pages. Needs
// `pnpm build` first and the npm registry for vitest, jest, @playwright/test (no browser:
// its tests use none), mocha, jasmine, newman, typescript and @types/node.

const CONSUMER_NAME = 'packed-consumer';
const INSTALL_TIMEOUT_MS = 300_000;

let workDir: string;
/** What the Newman runs' collections call: started with the suite, before the project is written. */
let collectionServer: CollectionServer;
const tarballs = {} as Record<PackageDir, string>;
const spoolDirs: string[] = [];

beforeAll(async () => {
  collectionServer = await startCollectionServer();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-packed-'));
  const destination = path.join(workDir, 'tarballs');
  Object.assign(tarballs, await packTarballs(destination));
  const packed = fs.readdirSync(destination).filter((name) => name.endsWith('.tgz'));
  expect(packed, 'pnpm -r pack made a tarball of these packages only').toHaveLength(PACKAGES.length);
}, 120_000);

// The project's node_modules (TestCafe's, Playwright's…) took over a minute to remove on a loaded machine.
afterAll(async () => {
  await collectionServer?.close();
  for (const dir of [workDir, ...spoolDirs]) {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);

describe('the packed tarballs', () => {
  it.each(PACKAGES)('@testrun/%s depends on real versions, not workspace:*', async (dir) => {
    const manifest = JSON.parse(await tarFile(tarballs[dir], 'package/package.json')) as Manifest;

    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    const sections = [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies];
    for (const section of sections) {
      for (const [name, range] of Object.entries(section ?? {})) {
        if (name.startsWith('@testrun/')) expect(range, name).toBe(workspaceVersion(name));
      }
    }
    expect(manifest.name).toBe(packageName(dir));
    expect(manifest.version).toBe(workspaceVersion(manifest.name));
  });

  it.each(PACKAGES)('@testrun/%s holds the built code, its types and docs, and nothing else', async (dir) => {
    const entries = await tarList(tarballs[dir]);
    const files = new Set(entries.filter((entry) => !entry.endsWith('/')));

    for (const name of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
      expect(files, `${dir}: ${name}`).toContain(`package/${name}`);
    }
    // Every source module, compiled, with its declarations (a .cts module: .cjs and .d.cts).
    // Core's modules are bundled (scripts/bundle-core.mjs): tsc's copy of each would be
    // unreachable through its exports map, so only their declarations ship.
    for (const { module, js, dts } of sourceModules(dir)) {
      if (dir !== 'core')
        expect(files, `${dir}: dist/${module}${js}`).toContain(`package/dist/${module}${js}`);
      expect(files, `${dir}: dist/${module}${dts}`).toContain(`package/dist/${module}${dts}`);
    }
    if (dir === 'core') {
      // Bundles apart from the reporters' core, each loaded only by what uses it: the CI summary
      // (when a summary is written), shard plans (`@testrun/core/plan`: `testrun plan`, the
      // sequencers), quarantine (once a test failed in a run whose service announced it), and the
      // attachments' stage (when a run has files) with what it shares with index.js.
      const code = [...files].filter((file) => /\.c?js$/.test(file)).sort();
      expect(code).toEqual([
        'package/dist/attachments.js',
        'package/dist/index.js',
        'package/dist/plan.js',
        'package/dist/quarantine/index.js',
        expect.stringMatching(/^package\/dist\/shared-[A-Z0-9]+\.js$/),
        'package/dist/summary/index.js',
      ]);
    }
    // Whatever the manifest points at is in the tarball.
    const manifest = JSON.parse(await tarFile(tarballs[dir], 'package/package.json')) as Manifest;
    for (const target of manifestTargets(manifest)) {
      expect(files, `${dir}: ${target}, named in package.json`).toContain(
        `package/${path.posix.normalize(target)}`,
      );
    }

    const unwanted = [...files].filter(
      (file) =>
        /\/(test|tests|__tests__|fixtures|src)\//.test(file) ||
        /\.(test|spec)\.[cm]?[jt]s$/.test(file) ||
        /tsconfig[^/]*\.json$/.test(file) ||
        file.endsWith('.tsbuildinfo') ||
        (file.endsWith('.ts') && !file.endsWith('.d.ts')),
    );
    expect(unwanted, `${dir}: tests, fixtures, sources or build config`).toEqual([]);
    const unexpected = [...files].filter(
      (file) =>
        !/^package\/(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+\.(c?js|d\.c?ts)|bin\/[^/]+\.js)$/.test(
          file,
        ),
    );
    expect(unexpected, `${dir}: files outside dist, bin and the docs`).toEqual([]);
  });
});

// After the install, each test has a server of its own and runs in a folder of its own: they
// run side by side (Vitest's maxConcurrency, five, at a time).
describe.concurrent('installed from the tarballs with npm, outside the workspace', () => {
  let project: string;
  let install: RunOutcome;

  beforeAll(async () => {
    project = path.join(workDir, 'project');
    fs.mkdirSync(project);
    writeFiles(project, consumerProject());
    install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: project,
      env: consumerEnv(),
      timeoutMs: INSTALL_TIMEOUT_MS - 10_000,
    });
    succeeded(install, 'npm install');
  }, INSTALL_TIMEOUT_MS);

  /** The reporter's environment, aimed at the test's `server`, spooling into a dir removed afterwards. */
  function envFor(server: TestServer, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env = reporterEnv(server, extra);
    spoolDirs.push(env.TESTRUN_SPOOL_DIR!);
    return consumerEnv(env);
  }

  it('took every @testrun package from its tarball, none from the registry', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string }>;
    };
    const ours = Object.entries(lock.packages).filter(([location]) => location.includes('@testrun/'));
    expect(ours.map(([location]) => location).sort()).toEqual(
      PACKAGES.map((dir) => `node_modules/${packageName(dir)}`).sort(),
    );
    for (const [location, entry] of ours) {
      expect(entry.resolved, location).toMatch(/^file:.*\.tgz$/);
    }
    expect(install.stderr).not.toMatch(/ERESOLVE|peer dep/i);
  });

  // Every documented way to configure or run a reporter, taken verbatim from its page; the
  // README's quick start for each runner the way its CI section says, under `testrun run`.
  it.each(RUNNABLE_RUNS)(
    '$dir: the documented $framework setup, run as written, stores every result',
    async (documentedRun) => {
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
        const outcome = await run(program!, args, { cwd: path.join(project, documentedRun.dir), env });
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
  );

  // The same fixtures where quarantine must not pass the build: each exits as its runner does
  // without testrun, and the line says why (the decision's every variation is a unit test,
  // packages/core/test/quarantine/command-verdict.test.ts).
  it.each(QUARANTINE_VARIATIONS)(
    '$documentedRun.framework under testrun run, $what: exits as without testrun, saying why',
    async ({ documentedRun, extraFiles, prepare, why, ended }) => {
      const server = await startTestServer();
      await quarantine(server, documentedRun);
      const extra = (await prepare?.(server)) ?? {};
      const env = envFor(server, { GITHUB_STEP_SUMMARY: summaryFile(), ...extra });
      const dir = path.join(project, documentedRun.dir);
      // A folder of its own beside the documented one: the tests run side by side.
      const variant = fs.mkdtempSync(`${dir}-`);
      fs.cpSync(dir, variant, { recursive: true });
      writeFiles(variant, extraFiles ?? {});
      const outcome = await run(
        bin('testrun'),
        ['run', '--project', documentedRun.project, '--', ...documentedRun.command()],
        { cwd: variant, env },
      );
      const output = outcome.stdout + outcome.stderr;
      expect(outcome.code, output).toBe(1);
      expect(output).toMatch(why);
      const [stored] = await server.server.store.runs();
      if (ended === 'not created') {
        expect(stored, output).toBeUndefined();
        return;
      }
      expect(await server.server.store.endOf(stored!.id)).toMatchObject({ status: 'failed' });
      expect(output).toMatch(
        new RegExp(`^testrun run: run ${stored!.id} marked failed \\(the command exited 1\\)`, 'm'),
      );
      // Its summary names every failed test with why; a quarantined one is marked, not hidden.
      const results = await server.server.store.results(stored!.id);
      const summary = readSummary(fs.readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8'));
      expect(summary.heading).toBe(`❌ ${documentedRun.project} · ${documentedRun.framework}: failed`);
      expect(summary.tables['Why it failed']?.map((row) => row.cells[0])).toEqual(
        results
          .filter((result) => result.status === 'failed')
          .map((result) => `${result.testCase}${result.quarantined ? ' (quarantined)' : ''}`),
      );
    },
  );

  it('under testrun run, a command that passes exits 0 and its run is completed', async () => {
    const server = await startTestServer();
    const env = envFor(server, { GITHUB_STEP_SUMMARY: summaryFile() });
    const outcome = await run(
      bin('testrun'),
      ['run', '--project', 'api', '--', bin('mocha'), '--grep', 'adds'],
      {
        cwd: path.join(project, 'readme-mocharc'),
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
      cwd: path.join(project, README_CODE_DIR),
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
      cwd: path.join(project, README_CODE_DIR),
      env: consumerEnv(),
    });

    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
  });

  it('runs the installed testrun command', async () => {
    const server = await startTestServer();
    const testrun = path.join(project, 'node_modules', '.bin', 'testrun');

    const help = await run(testrun, ['--help'], { cwd: project, env: consumerEnv() });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: testrun <command>');

    const created = await run(testrun, ['create-run', '--framework', 'vitest', '--project', 'p'], {
      cwd: project,
      env: envFor(server),
    });
    expect(created.code, created.stderr).toBe(0);
    // The run as shards need it: its id, then what the service announced.
    const [id = '', announced] = created.stdout.trim().split(';');
    expect(announced).toBe('extensions=failure-details,complete-run,read-runs,attachments,quarantine');
    expect(await server.server.store.run(id)).toMatchObject({ id, project: 'p', framework: 'vitest' });

    // The form every spool line prints resolves to the installed CLI (`--no`: never the registry).
    const replay = await run('npx', ['--no', '@testrun/cli', 'replay'], {
      cwd: project,
      env: envFor(server),
    });
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout + replay.stderr).toMatch(/^testrun replay: nothing to send in /m);
  });

  // A failed browser test's files (docs/attachments.md), from Playwright, TestCafe and Cucumber
  // and from the CLI's `upload` of a JUnit report, to the installed `testrun serve`: each stored
  // with the failed result, byte for byte, shown on the run page, a trace opened in the viewer
  // the server serves, and an uploaded .html or .svg that runs none of its script.
  it.skipIf(browserMissing)(
    'attachments: a failed browser test’s files reach the installed testrun serve, byte for byte, and its page shows them safely',
    async () => {
      const served = await startInstalledServe();
      try {
        const runs = await attachmentRuns(served.url);
        await checkAttachments(served, runs);
      } finally {
        await served.stop();
      }
    },
    ATTACHMENTS_TIMEOUT_MS,
  );

  it('exports the option types to ESM and CommonJS TypeScript (module nodenext)', async () => {
    const tsc = await run('npx', ['tsc', '--noEmit', '-p', '.'], { cwd: project, env: consumerEnv() });
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  });

  it("type-checks the TypeScript of the READMEs' code against the installed types", async () => {
    const tsc = await run('npx', ['tsc', '--noEmit', '-p', `${README_CODE_DIR}/tsconfig.json`], {
      cwd: project,
      env: consumerEnv(),
    });
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------
// Attachments: the fixtures of packages/test-utils/fixtures/attachments, copied into the
// consumer project, against `testrun serve`. WebdriverIO, which the project does not install,
// shows its screenshots in e2e/webdriverio.test.ts's run, and Vitest its annotations in the
// server's pages browser test: each a run the suite makes anyway (a browser run costs seconds).

const ATTACHMENTS_FIXTURES = path.join(FIXTURES_DIR, 'attachments');
const ATTACHMENTS_KEY = 'packed-attachments-key-52';
/** Three framework runs (two in a browser) and an upload side by side, on a machine others share. */
const ATTACHMENTS_TIMEOUT_MS = 600_000;
/** The spool folders of the attachments' runs: empty afterwards, every result and file delivered. */
const attachmentSpools: string[] = [];

interface InstalledServe {
  url: string;
  data: string;
  stop(): Promise<void>;
}

/** The installed `testrun serve` on a data folder of its own, once it says where it listens. */
async function startInstalledServe(): Promise<InstalledServe> {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-packed-serve-'));
  spoolDirs.push(data);
  const child: ChildProcess = spawn(bin('testrun'), ['serve', '--data', data, '--api-key', ATTACHMENTS_KEY], {
    env: consumerEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(`testrun serve did not start:
${output}`),
        ),
      60_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (listening) {
        clearTimeout(timer);
        resolve(listening);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', () =>
      reject(
        new Error(`testrun serve exited:
${output}`),
      ),
    );
  });
  return {
    url,
    data,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What each runner's run left on disk that its failed test attached, to compare with what the service stores. */
interface AttachmentRun {
  framework: string;
  outcome: RunOutcome;
  /** The framework's exit code for a run with a failed test. */
  code: number;
  /** The failed result's testCase. */
  failed: string;
  /** Attachment name → the bytes the runner wrote (or attached). */
  files: Record<string, Buffer>;
}

async function attachmentRuns(url: string): Promise<AttachmentRun[]> {
  const dir = path.join(workDir, 'project', 'attachments');
  fs.cpSync(ATTACHMENTS_FIXTURES, dir, { recursive: true });
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-packed-files-'));
  spoolDirs.push(files);
  const env = (extra: Record<string, string> = {}) => {
    const reporter = reporterEnv(
      { url, apiKey: ATTACHMENTS_KEY },
      { CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ...extra },
    );
    spoolDirs.push(reporter.TESTRUN_SPOOL_DIR!);
    attachmentSpools.push(reporter.TESTRUN_SPOOL_DIR!);
    return consumerEnv(reporter);
  };
  const playwrightOutput = path.join(files, 'playwright');
  const testcafeShots = path.join(files, 'testcafe');
  const [playwright, testcafe, cucumber, upload] = await Promise.all([
    run(
      process.execPath,
      [path.join(dir, '../node_modules/@playwright/test/cli.js'), 'test', '--output', playwrightOutput],
      {
        cwd: path.join(dir, 'playwright'),
        env: env(),
      },
    ),
    untilTestCafeOpensItsBrowsers(async () => ({
      outcome: await run(
        bin('testcafe'),
        [
          'chromium:headless --no-sandbox',
          'tests/',
          '-r',
          'spec,testrun',
          '-s',
          `takeOnFails=true,path=${testcafeShots}`,
        ],
        { cwd: path.join(dir, 'testcafe'), env: env() },
      ),
    })).then(({ outcome }) => outcome),
    run(bin('cucumber-js'), [], { cwd: path.join(dir, 'cucumber'), env: env() }),
    run(bin('testrun'), ['upload', 'report.xml'], { cwd: path.join(dir, 'junit'), env: env() }),
  ]);
  const found = (root: string, pattern: RegExp) => {
    const match = (fs.readdirSync(root, { recursive: true }) as string[]).find((name) => pattern.test(name));
    if (!match) throw new Error(`no file matching ${pattern} in ${root}`);
    return fs.readFileSync(path.join(root, match));
  };
  const pixel = fs.readFileSync(path.join(dir, 'junit', 'screenshots', 'pays.png'));
  return [
    {
      framework: 'playwright',
      outcome: playwright,
      code: 1,
      failed: 'checkout > pays',
      files: {
        screenshot: found(playwrightOutput, /test-failed-1\.png$/),
        trace: found(playwrightOutput, /trace\.zip$/),
        '../../cart.json': Buffer.from(JSON.stringify({ items: 2 })),
      },
    },
    {
      framework: 'testcafe',
      outcome: testcafe,
      code: 1,
      failed: 'checkout > pays',
      files: { screenshot: found(testcafeShots, /\.png$/) },
    },

    {
      framework: 'cucumber',
      outcome: cucumber,
      code: 1,
      failed: 'checkout > pays by card',
      files: {
        'note.txt': Buffer.from('paid for 2 items'),
        'checkout.png': fs.readFileSync(path.join(dir, 'cucumber', 'pixel.png')),
      },
    },

    {
      framework: 'junit',
      outcome: upload,
      code: 0,
      failed: 'checkout > pays',
      files: {
        'pays.png': pixel,
        // A test's own report and chart, with script in them: stored as they are, never run.
        'report.html': fs.readFileSync(path.join(dir, 'junit', 'pages', 'report.html')),
        'chart.svg': fs.readFileSync(path.join(dir, 'junit', 'pages', 'chart.svg')),
      },
    },
  ];
}

/** What the test does with a page's document, typed here: the suite's TypeScript has no DOM types. */
interface EmbeddingDocument {
  createElement(name: string): { src?: string; data?: string };
  body: { append(...nodes: unknown[]): void };
}

interface ListedFile {
  name: string;
  contentType: string;
  sha256: string;
  url: string;
  received: boolean;
}

async function checkAttachments(served: InstalledServe, runs: AttachmentRun[]): Promise<void> {
  const api = async (route: string) => {
    const response = await fetch(`${served.url}${route}`, {
      headers: { authorization: `Bearer ${ATTACHMENTS_KEY}` },
    });
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const stored = JSON.parse((await api('/api/v1/runs')).bytes.toString()) as {
    id: string;
    framework: string;
    total: number;
  }[];
  const runOf: Record<string, string> = {};
  for (const expected of runs) {
    const output = expected.outcome.stdout + expected.outcome.stderr;
    expect(expected.outcome.code, `${expected.framework}: its own exit code\n${output}`).toBe(expected.code);
    const candidates = stored.filter((runOf) => runOf.framework === expected.framework && runOf.total > 0);
    expect(candidates, `${expected.framework}: one run\n${output}`).toHaveLength(1);
    const runId = candidates[0]!.id;
    runOf[expected.framework] = runId;
    const results = JSON.parse((await api(`/api/v1/runs/${runId}/results`)).bytes.toString()) as {
      testCase: string;
      status: string;
      attachments?: ListedFile[];
    }[];
    const failed = results.find((result) => result.testCase === expected.failed);
    expect(failed?.status, `${expected.framework}\n${output}`).toBe('failed');
    // The passing tests' files stay home (attachments: 'failed', the default).
    expect(
      results.filter((result) => result !== failed && result.attachments),
      expected.framework,
    ).toEqual([]);
    const byName = Object.fromEntries((failed?.attachments ?? []).map((file) => [file.name, file]));
    for (const [name, bytes] of Object.entries(expected.files)) {
      const file = byName[name];
      expect(
        file,
        `${expected.framework}: ${name} among ${Object.keys(byName).join(', ')}\n${output}`,
      ).toBeDefined();
      expect(file!.received, `${expected.framework}: ${name}`).toBe(true);
      const downloaded = await api(file!.url);
      expect(downloaded.status).toBe(200);
      expect(downloaded.bytes.equals(bytes), `${expected.framework}: ${name} byte for byte`).toBe(true);
    }
    expect(output).toMatch(/testrun: .*files? uploaded/);
  }
  for (const spool of attachmentSpools) expect(readSpoolLines(spool), spool).toEqual([]);
  // The files are in the data folder by their hashes, and nowhere else: a name like ../../cart.json reaches no path.
  const kept = (
    fs.readdirSync(path.join(served.data, 'attachments'), { recursive: true }) as string[]
  ).filter((name) => fs.statSync(path.join(served.data, 'attachments', name)).isFile());
  expect(
    kept.every((name) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(name)),
    kept.join(', '),
  ).toBe(true);
  expect(fs.existsSync(path.join(served.data, '..', 'cart.json'))).toBe(false);

  // The run page in Chromium: the failed test's screenshot shown, its trace opened in the
  // viewer the server serves, nothing fetched from anywhere else; and the script of an
  // uploaded .html and .svg run nowhere, however they are opened.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext();
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(served.url) || /^(blob|data):/.test(url)) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const pwned: string[] = [];
    context.on('request', (request) => {
      if (request.url().includes('/pwned')) pwned.push(request.url());
    });
    const page = await context.newPage();
    await page.goto(`${served.url}/runs/${runOf.playwright}`);
    const screenshot = page.getByRole('img', { name: 'screenshot' });
    await screenshot.waitFor();
    expect(
      await screenshot.evaluate(
        (image: { complete: boolean; naturalWidth: number }) => image.complete && image.naturalWidth > 0,
      ),
    ).toBe(true);
    const [viewer] = await Promise.all([context.waitForEvent('page'), page.locator('a.open-trace').click()]);
    await viewer.getByText('Set content').first().waitFor({ timeout: 120_000 });
    expect(await viewer.getByText("getByRole('button')").count()).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);

    await page.goto(`${served.url}/runs/${runOf.junit}`);
    const title = await page.title();
    const html = await page.getByRole('link', { name: 'download' }).first().getAttribute('href');
    const svg = await page.getByRole('img', { name: 'chart.svg' }).getAttribute('src');
    expect([html, svg]).toEqual([
      expect.stringContaining('/report.html?'),
      expect.stringContaining('/chart.svg?'),
    ]);
    for (const url of [html!, svg!]) {
      // Opened: saved (Content-Disposition: attachment), never rendered.
      const opened = await context.newPage();
      const download = opened.waitForEvent('download');
      await opened.goto(`${served.url}${url}`).catch(() => {});
      expect((await download).suggestedFilename()).toMatch(/^(report\.html|chart\.svg)$/);
      await opened.close();
      // Framed in the run page, and embedded as an image and an object: refused, or inert.
      await page.evaluate((src) => {
        const document = (globalThis as unknown as { document: EmbeddingDocument }).document;
        const frame = document.createElement('iframe');
        frame.src = src;
        const image = document.createElement('img');
        image.src = src;
        const object = document.createElement('object');
        object.data = src;
        document.body.append(frame, image, object);
      }, url);
    }
    await page.waitForTimeout(1000);
    expect(pwned).toEqual([]);
    expect(await page.title()).toBe(title);
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------
// The consumer project

function consumerProject(): Record<string, string> {
  const dependencies = {
    ...Object.fromEntries(PACKAGES.map((dir) => [packageName(dir), `file:${tarballs[dir]}`])),
    // TestCafe loads `-r testrun` as testcafe-reporter-testrun: the README installs it under that name too.
    'testcafe-reporter-testrun': `file:${tarballs.testcafe}`,
  };
  // Types only, so both files run under tsc alone. The @ts-expect-error lines fail to
  // compile if an import resolved to nothing (an `any` accepts everything).
  const typesFile = (exportPrefix: string) => `import type { TestrunJasmineOptions } from '@testrun/jasmine';
import type { TestrunJestOptions } from '@testrun/jest';
import type { TestrunMochaOptions } from '@testrun/mocha';
import type { TestrunNodeTestOptions } from '@testrun/node-test';
import type { TestrunPlaywrightOptions } from '@testrun/playwright';
import type { TestrunVitestOptions } from '@testrun/vitest';
import type { TestrunSequencer, testrunSequencer } from '@testrun/vitest/sequencer';
import type JestSequencer from '@testrun/jest/sequencer';

// The sequencers' entry points (docs/sharding.md) resolve through the published exports maps.
export type ${exportPrefix}Sequencers = [typeof TestrunSequencer, ReturnType<typeof testrunSequencer>, typeof JestSequencer];
export const ${exportPrefix}vitestOptions: TestrunVitestOptions = { project: 'web', tags: ['nightly'], batchSize: 100 };
export const ${exportPrefix}jestOptions: TestrunJestOptions = { project: 'api', statusMap: { todo: 'pending' } };
// @ts-expect-error batchSize is a number
export const ${exportPrefix}wrongVitest: TestrunVitestOptions = { batchSize: '100' };
// @ts-expect-error there is no option 'projekt'
export const ${exportPrefix}wrongJest: TestrunJestOptions = { projekt: 'api' };
export const ${exportPrefix}playwrightOptions: TestrunPlaywrightOptions = { project: 'e2e', projectLabel: 'always' };
// @ts-expect-error flushTimeout is a number
export const ${exportPrefix}wrongPlaywright: TestrunPlaywrightOptions = { flushTimeout: 'soon' };
export const ${exportPrefix}mochaOptions: TestrunMochaOptions = { project: 'unit', reporter: 'dot' };
// @ts-expect-error reporter names a reporter
export const ${exportPrefix}wrongMocha: TestrunMochaOptions = { reporter: 42 };
export const ${exportPrefix}jasmineOptions: TestrunJasmineOptions = { project: 'specs', failOnError: true };
// @ts-expect-error failOnError is a boolean
export const ${exportPrefix}wrongJasmine: TestrunJasmineOptions = { failOnError: 'yes' };
export const ${exportPrefix}nodeTestOptions: TestrunNodeTestOptions = { tags: ['node'] };
// @ts-expect-error tags are strings
export const ${exportPrefix}wrongNodeTest: TestrunNodeTestOptions = { tags: [1] };
export const ${exportPrefix}cucumberOptions: import('@testrun/cucumber').TestrunCucumberOptions = { formatter: 'pretty' };
export const ${exportPrefix}webdriverioOptions: import('@testrun/webdriverio').TestrunWebdriverioOptions = { project: 'e2e', completeRun: true };
export const ${exportPrefix}testcafeOptions: import('@testrun/testcafe').TestrunTestCafeOptions = { project: 'e2e', projectLabel: 'always' };
// @ts-expect-error projectLabel is auto, always or never
export const ${exportPrefix}wrongTestcafe: import('@testrun/testcafe').TestrunTestCafeOptions = { projectLabel: 'sometimes' };
export const ${exportPrefix}newmanOptions: import('@testrun/newman-reporter-testrun').TestrunNewmanOptions = { project: 'api', failOnError: true };
// @ts-expect-error maxRetries is a number
export const ${exportPrefix}wrongNewman: import('@testrun/newman-reporter-testrun').TestrunNewmanOptions = { maxRetries: 'many' };
// @ts-expect-error completeRun is a boolean or a request
export const ${exportPrefix}wrongWebdriverio: import('@testrun/webdriverio').TestrunWebdriverioOptions = { completeRun: 'yes' };
`;
  const documentedRuns = DOCUMENTED_RUNS.flatMap((documentedRun) =>
    Object.entries(documentedRun.files()).map(([name, content]) => [`${documentedRun.dir}/${name}`, content]),
  );
  // The READMEs' code that is a program of its own: run with Node (it is JavaScript as
  // written) and type-checked as the TypeScript its fence says it is, with Node's types.
  const readmeCode = Object.entries({
    'core-readme-run-reporter': docBlock('core-readme-run-reporter'),
    'server-readme-use': docBlock('server-readme-use'),
    'cli-readme-programmatic-use': docBlock('cli-readme-programmatic-use'),
  }).flatMap(([name, code]) => [
    [`${README_CODE_DIR}/${name}.mjs`, code],
    [`${README_CODE_DIR}/${name}.mts`, code],
  ]);
  return {
    'package.json': json({
      name: CONSUMER_NAME,
      version: '1.0.0',
      private: true,
      dependencies,
      devDependencies: {
        '@cucumber/cucumber': '^12',
        '@playwright/test': '^1.65',
        '@types/node': '^20',
        jasmine: '^5',
        jest: '^30',
        mocha: '^11',
        newman: '^6',
        testcafe: '^3',
        typescript: '~5.9',
        vitest: '^4',
      },
    }),
    'tsconfig.json': json({
      compilerOptions: { ...TSC_OPTIONS, types: [] },
      // The package has no "type": .mts is an ES module, .cts a CommonJS one.
      files: ['options.mts', 'options.cts'],
    }),
    'options.mts': typesFile(''),
    'options.cts': typesFile('cjs_'),
    ...Object.fromEntries(documentedRuns),
    ...Object.fromEntries(readmeCode),
    [`${README_CODE_DIR}/tsconfig.json`]: json({
      compilerOptions: { ...TSC_OPTIONS, types: ['node'] },
      include: ['*.mts'],
    }),
  };
}

const TSC_OPTIONS = {
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

/** Where the READMEs' programs (core, server, cli) are written in the consumer project. */
const README_CODE_DIR = 'readme-code';

// ---------------------------------------------------------------------------------------
// The documented runs: each block of README.md and the package READMEs that configures or
// runs a reporter (marked `<!-- tested: … -->`, read by test/doc-blocks.ts), written as it
// is into a folder of its own in the consumer project beside one test file, and run there
// the way its page says.

interface DocumentedRun {
  /** The folder in the consumer project: the block's name, or a variant of it. */
  dir: string;
  framework:
    | 'vitest'
    | 'jest'
    | 'playwright'
    | 'mocha'
    | 'node-test'
    | 'cucumber'
    | 'jasmine'
    | 'newman'
    | 'testcafe';
  /** The folder's files: the block, named as its page names it, and the tests. */
  files: () => Record<string, string>;
  /** Program and arguments, run in the folder. */
  command: () => string[];
  project: string;
  /** The test file's name as stored. */
  suite: string;
  /** What `it.todo` is stored as (the node:test module's statusMap maps it). */
  todo?: 'skipped' | 'todo';
  /** Lower-cases the test names, as the Mocha module's mapResult does. */
  lowerCase?: boolean;
  /** The framework's exit code for a run with a failed test: 1, Jasmine's 3. */
  failedExitCode?: number;
  /** Its tests have no nested blocks (TestCafe: fixture > test): `Math > over ten`. */
  flat?: boolean;
  /** It drives a browser (TestCafe): skipped, saying why, where Chromium is missing. */
  browser?: boolean;
  /** Run under `testrun run`, as the README's CI section says, with a CI summary to read back. */
  underTestrunRun?: boolean;
  /**
   * The server quarantines `Math > fails on purpose` in the run's project before the run
   * (docs/quarantine.md): the build passes, under `testrun run` (every runner), or in the
   * process (Playwright, whose onEnd decides its status; Mocha, whose exit code is what its
   * reporter's done hands it).
   */
  quarantined?: boolean;
}

const MOCHA_CJS_TESTS = { 'test/math.test.js': mathTest('mocha-cjs') };
/** A package whose package.json says `"type": "module"`, where `.mocharc.js` would fail. */
const MODULE_PACKAGE_JSON = json({ name: `${CONSUMER_NAME}-esm`, private: true, type: 'module' });
const MODULE_PACKAGE = { 'package.json': MODULE_PACKAGE_JSON, 'test/math.test.js': mathTest('mocha-esm') };

/** The README's Jest block, once its first line is seen to say `saying`: another name it may be given. */
function readmeJestConfig(saying: string): string {
  const block = docBlock('readme-jest-config');
  expect(block.split('\n')[0]).toContain(saying);
  return block;
}

/** Jasmine's spec file, and the config `jasmine init` writes (helpers in spec/helpers), where a block is only a helper. */
const JASMINE_SPEC = { 'spec/math.spec.js': mathTest('jasmine') };
const JASMINE_INIT_CONFIG = json({
  spec_dir: 'spec',
  spec_files: ['**/*[sS]pec.?(m)js'],
  helpers: ['helpers/**/*.?(m)js'],
});
const JASMINE_RUNS: DocumentedRun[] = [
  ...(['readme-jasmine-json', 'jasmine-readme-json'] as const).map(
    (block): DocumentedRun => ({
      dir: block,
      framework: 'jasmine',
      files: () => ({ ...JASMINE_SPEC, 'spec/support/jasmine.json': docBlock(block) }),
      command: () => [bin('jasmine')],
      project: CONSUMER_NAME,
      suite: 'spec/math.spec.js',
      failedExitCode: 3,
    }),
  ),
  {
    dir: 'jasmine-readme-helper',
    framework: 'jasmine',
    files: () => ({
      ...JASMINE_SPEC,
      'spec/support/jasmine.json': JASMINE_INIT_CONFIG,
      'spec/helpers/testrun.mjs': docBlock('jasmine-readme-helper'),
    }),
    command: () => [bin('jasmine')],
    project: 'api',
    suite: 'spec/math.spec.js',
    lowerCase: true,
    failedExitCode: 3,
  },
  {
    dir: 'jasmine-readme-parallel-config',
    framework: 'jasmine',
    files: () => ({
      ...JASMINE_SPEC,
      'spec/support/jasmine.mjs': docBlock('jasmine-readme-parallel-config'),
    }),
    command: () => [bin('jasmine'), '--parallel=2'],
    project: CONSUMER_NAME,
    suite: 'spec/math.spec.js',
    failedExitCode: 3,
  },
];

/** The math tests as TestCafe's: a fixture, no nested blocks, no todo (a skipped test). */
const TESTCAFE_MATH = {
  'tests/math.test.js': `fixture('Math').page('about:blank');

test('adds', async (t) => {
  await t.expect(1 + 1).eql(2);
});
test('over ten', async (t) => {
  await t.expect(9 + 1).eql(10);
});
test('fails on purpose', async (t) => {
  await t.expect(1 + 1).eql(3);
});
test.skip('is skipped', async () => {});
test.skip('is to do', async () => {});
`,
};

const TESTCAFE_RUNS: DocumentedRun[] = [
  {
    dir: 'readme-testcafe-command',
    framework: 'testcafe',
    files: () => TESTCAFE_MATH,
    command: () => ['sh', '-c', docBlock('readme-testcafe-command')],
    project: CONSUMER_NAME,
    suite: 'tests/math.test.js',
    flat: true,
    browser: true,
  },
  {
    dir: 'testcafe-readme-testcaferc',
    framework: 'testcafe',
    files: () => ({ ...TESTCAFE_MATH, '.testcaferc.json': docBlock('testcafe-readme-testcaferc') }),
    command: () => [bin('testcafe'), 'chromium:headless', 'tests/'],
    project: CONSUMER_NAME,
    suite: 'tests/math.test.js',
    flat: true,
    browser: true,
  },
  {
    dir: 'testcafe-readme-api',
    framework: 'testcafe',
    files: () => ({ ...TESTCAFE_MATH, ...asWritten('testcafe-readme-api', 'run-tests.mjs') }),
    command: () => commandIn('testcafe-readme-api', 'then:'),
    project: 'e2e',
    suite: 'tests/math.test.js',
    flat: true,
    browser: true,
  },
];

const DOCUMENTED_RUNS: DocumentedRun[] = [
  {
    dir: 'readme-vitest-config',
    framework: 'vitest',
    files: () => ({
      ...asWritten('readme-vitest-config', 'vitest.config.ts'),
      'math.test.mjs': mathTest('vitest'),
    }),
    command: () => [bin('vitest'), 'run'],
    project: 'web',
    suite: 'math.test.mjs',
    underTestrunRun: true,
    quarantined: true,
  },
  {
    dir: 'vitest-readme-config',
    framework: 'vitest',
    files: () => ({
      ...asWritten('vitest-readme-config', 'vitest.config.ts'),
      'math.test.mjs': mathTest('vitest'),
    }),
    command: () => [bin('vitest'), 'run'],
    project: CONSUMER_NAME,
    suite: 'math.test.mjs',
  },
  {
    dir: 'readme-jest-config',
    framework: 'jest',
    files: () => ({ ...asWritten('readme-jest-config', 'jest.config.js'), 'math.test.js': mathTest('jest') }),
    command: () => [bin('jest')],
    project: 'api',
    suite: 'math.test.js',
    underTestrunRun: true,
    quarantined: true,
  },
  {
    dir: 'readme-jest-config-mjs',
    framework: 'jest',
    files: () => {
      const commonJs = readmeJestConfig('jest.config.mjs works the same with `export default`');
      expect(commonJs.match(/module\.exports = /g)).toHaveLength(1);
      return {
        'jest.config.mjs': commonJs.replace('module.exports = ', 'export default '),
        'math.test.js': mathTest('jest'),
      };
    },
    command: () => [bin('jest')],
    project: 'api',
    suite: 'math.test.js',
  },
  {
    dir: 'readme-jest-config-cjs',
    framework: 'jest',
    files: () => ({
      'package.json': MODULE_PACKAGE_JSON,
      'jest.config.cjs': readmeJestConfig('jest.config.cjs in a "type": "module" package'),
      'math.test.js': mathTest('jest'),
    }),
    command: () => [bin('jest')],
    project: 'api',
    suite: 'math.test.js',
  },
  {
    dir: 'jest-readme-config',
    framework: 'jest',
    files: () => ({ ...asWritten('jest-readme-config', 'jest.config.js'), 'math.test.js': mathTest('jest') }),
    command: () => [bin('jest')],
    project: CONSUMER_NAME,
    suite: 'math.test.js',
  },
  ...(['readme-playwright-config', 'playwright-readme-config'] as const).map(
    (block): DocumentedRun => ({
      dir: block,
      framework: 'playwright',
      files: () => ({ ...asWritten(block, 'playwright.config.ts'), 'math.spec.ts': mathTest('playwright') }),
      command: () => [
        bin('playwright'),
        'test',
        '--output',
        path.join(workDir, `playwright-output-${block}`),
      ],
      project: block === 'readme-playwright-config' ? 'e2e' : CONSUMER_NAME,
      // Playwright names files from its testDir, the config's folder.
      suite: 'math.spec.ts',
      underTestrunRun: block === 'readme-playwright-config',
      // Under testrun run, and alone, where Playwright takes its status from the reporter.
      quarantined: true,
    }),
  ),
  ...(['readme-mocharc', 'mocha-readme-mocharc'] as const).map(
    (block): DocumentedRun => ({
      dir: block,
      framework: 'mocha',
      files: () => ({ ...MODULE_PACKAGE, ...asWritten(block, '.mocharc.cjs') }),
      command: () => [bin('mocha')],
      project: 'api',
      suite: 'test/math.test.js',
      underTestrunRun: block === 'readme-mocharc',
      // Under testrun run, and alone, where Mocha takes its exit code from the reporter's done.
      quarantined: true,
    }),
  ),
  {
    // The README's other way: "or on the command line: npx mocha --reporter @testrun/mocha".
    dir: 'readme-mocharc-command-line',
    framework: 'mocha',
    files: () => MOCHA_CJS_TESTS,
    command: () => commandIn('readme-mocharc', 'on the command line:'),
    project: CONSUMER_NAME,
    suite: 'test/math.test.js',
  },
  {
    dir: 'mocha-readme-reporter-module',
    framework: 'mocha',
    files: () => ({
      ...asWritten('mocha-readme-reporter-module', 'testrun-reporter.cjs'),
      ...MOCHA_CJS_TESTS,
    }),
    command: () => commandIn('mocha-readme-reporter-module', 'then:'),
    project: 'api',
    suite: 'test/math.test.js',
    lowerCase: true,
  },
  {
    dir: 'readme-node-test-command',
    framework: 'node-test',
    files: () => ({ 'math.test.js': mathTest('node-test') }),
    command: () => ['sh', '-c', docBlock('readme-node-test-command')],
    project: CONSUMER_NAME,
    suite: 'math.test.js',
    underTestrunRun: true,
    quarantined: true,
  },
  {
    dir: 'node-test-readme-scripts',
    framework: 'node-test',
    files: () => ({
      'package.json': json({
        name: `${CONSUMER_NAME}-scripts`,
        private: true,
        ...(JSON.parse(docBlock('node-test-readme-scripts')) as object),
      }),
      'math.test.js': mathTest('node-test'),
    }),
    command: () => ['npm', 'test'],
    project: `${CONSUMER_NAME}-scripts`,
    suite: 'math.test.js',
  },
  {
    dir: 'node-test-readme-reporter-module',
    framework: 'node-test',
    files: () => ({
      ...asWritten('node-test-readme-reporter-module', 'testrun-reporter.mjs'),
      'math.test.js': mathTest('node-test'),
    }),
    command: () => commandIn('node-test-readme-reporter-module', 'then:'),
    project: 'api',
    suite: 'math.test.js',
    todo: 'todo',
  },
  ...(['readme-cucumber-profile', 'cucumber-readme-profile'] as const).map(
    (block): DocumentedRun => ({
      dir: block,
      framework: 'cucumber',
      files: () => ({ ...asWritten(block, 'cucumber.cjs'), ...CUCUMBER_MATH }),
      command: () => [bin('cucumber-js')],
      project: block === 'readme-cucumber-profile' ? 'api' : 'checkout',
      suite: 'features/math.feature',
    }),
  ),
  {
    // The README's other way: "or on the command line: npx cucumber-js --format @testrun/cucumber".
    dir: 'readme-cucumber-profile-command-line',
    framework: 'cucumber',
    files: () => CUCUMBER_MATH,
    command: () => commandIn('readme-cucumber-profile', 'on the command line:'),
    project: CONSUMER_NAME,
    suite: 'features/math.feature',
  },
  {
    dir: 'cucumber-readme-formatter-module',
    framework: 'cucumber',
    files: () => ({
      ...asWritten('cucumber-readme-formatter-module', 'testrun-formatter.mjs'),
      ...CUCUMBER_MATH,
    }),
    command: () => commandIn('cucumber-readme-formatter-module', 'then:'),
    project: 'checkout',
    suite: 'features/math.feature',
    lowerCase: true,
  },
  ...JASMINE_RUNS,
  {
    dir: 'readme-newman-command',
    framework: 'newman',
    files: () => ({ 'collection.json': mathCollection() }),
    command: () => ['sh', '-c', docBlock('readme-newman-command')],
    project: CONSUMER_NAME,
    suite: 'math',
  },
  {
    dir: 'newman-readme-run',
    framework: 'newman',
    files: () => ({
      ...asWritten('newman-readme-run', 'run-collection.cjs'),
      'collection.json': mathCollection(),
    }),
    command: () => commandIn('newman-readme-run', 'then:'),
    project: 'api',
    suite: 'math',
  },
  ...TESTCAFE_RUNS,
];

const browserMissing = testcafeBrowserMissing();
if (browserMissing) console.warn(`skipping the packed TestCafe runs: ${browserMissing}`);
/** The documented runs this machine can run: those that drive a browser need Chromium. */
const RUNNABLE_RUNS = DOCUMENTED_RUNS.filter((documentedRun) => !(documentedRun.browser && browserMissing));

/** The documented run written in `dir`. */
function documented(dir: string): DocumentedRun {
  return DOCUMENTED_RUNS.find((documentedRun) => documentedRun.dir === dir)!;
}

/** Quarantines `Math > fails on purpose` of the run's file in `project` (default: the run's), as `testrun quarantine add` does. */
async function quarantine(server: TestServer, documentedRun: DocumentedRun, project = documentedRun.project) {
  const answer = await fetch(`${server.url}/api/v1/quarantines`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      project,
      testSuite: documentedRun.suite,
      testCase: 'Math > fails on purpose',
      reason: 'fails on purpose',
      by: 'packed-install',
    }),
  });
  expect(answer.status, await answer.text()).toBe(201);
}

interface QuarantineVariation {
  documentedRun: DocumentedRun;
  what: string;
  /** Written beside the documented files, in the variant's folder. */
  extraFiles?: Record<string, string>;
  /** Done to the server after the quarantine; what it answers is added to the environment. */
  prepare?: (server: TestServer) => Promise<Record<string, string> | undefined>;
  /** The line that says why the build fails. */
  why: RegExp;
  ended?: 'not created';
}

/**
 * One way for each of four runners that quarantine must not pass a build: together, every way
 * the issue names. A failure quarantined in another project only is the run's list's and the
 * line's (packages/server/test/quarantine.test.ts, packages/core/test/quarantine/watch.test.ts).
 */
const QUARANTINE_VARIATIONS: QuarantineVariation[] = [
  {
    documentedRun: documented('readme-vitest-config'),
    what: 'one more failing test that is not quarantined',
    extraFiles: {
      'also-fails.test.mjs':
        "import { expect, it } from 'vitest';\nit('also fails', () => expect(1).toBe(2));\n",
    },
    why: /^testrun run: failed: 1 failure is not a quarantined test's: also-fails\.test\.mjs › also fails \(not quarantined in project "web"\); 1 quarantined test failed too/m,
  },
  {
    documentedRun: documented('readme-jest-config'),
    what: 'a file that fails to load',
    extraFiles: { 'broken.test.js': "throw new Error('this file cannot load');\n" },
    why: /^testrun run: failed: 1 failure is not a quarantined test's: broken\.test\.js › \(file failed to run\) \(a file that failed to run is never quarantined\); 1 quarantined test failed too/m,
  },
  {
    documentedRun: documented('readme-playwright-config'),
    what: 'the quarantine expired',
    prepare: async (server) => {
      await server.server.store.write((tx) =>
        tx.tx.query("UPDATE quarantines SET expires_at = '2026-01-02T00:00:00.000Z'"),
      );
      return undefined;
    },
    why: /^testrun run: failed: 1 failure is not a quarantined test's: math\.spec\.ts › Math > fails on purpose \(its quarantine expired on 2026-01-02\)/m,
  },
  {
    documentedRun: documented('readme-node-test-command'),
    what: 'the service down at run start',
    prepare: async () => ({ TESTRUN_BASE_URL: await closedPortUrl() }),
    why: /^testrun run: the run could not be created \(.*\): the command runs as it would without testrun run \(nothing is quarantined\)/m,
    ended: 'not created',
  },
];

/**
 * The math tests as a Postman collection named `math`, its requests in a folder `Math`, sent to
 * the collection server the suite starts (Newman has no todo: `is to do` is a skipped assertion,
 * stored as todo is by default, skipped).
 */
function mathCollection(): string {
  const request = (name: string, test: string) => ({
    name,
    request: { method: 'GET', url: `${collectionServer.url}/health` },
    event: [{ listen: 'test', script: { exec: [test] } }],
  });
  return json({
    info: { name: 'math', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [
      {
        name: 'Math',
        item: [
          request('adds', "pm.test('1 + 1 is 2', () => pm.expect(1 + 1).to.equal(2));"),
          {
            name: 'carries',
            item: [request('over ten', "pm.test('9 + 1 is 10', () => pm.expect(9 + 1).to.equal(10));")],
          },
          request('fails on purpose', "pm.test('1 + 1 is 3', () => pm.expect(1 + 1).to.equal(3));"),
          request('is skipped', "pm.test.skip('1 + 1 is 2', () => {});"),
          request('is to do', "pm.test.skip('is written later', () => {});"),
        ],
      },
    ],
  });
}

/**
 * The math tests in Gherkin, storing what mathTest's files store: Cucumber has no skip of its
 * own (a Before hook returns 'skipped') and no todo (a scenario without steps is skipped).
 */
const CUCUMBER_MATH = {
  'features/math.feature': `Feature: Math

  Scenario: adds
    Then 1 + 1 is 2

  Scenario: fails on purpose
    Then 1 + 1 is 3

  @skip
  Scenario: is skipped
    Then 1 + 1 is 2

  Scenario: is to do

  Rule: carries

    Scenario: over ten
      Then 9 + 1 is 10
`,
  'features/support/steps.js': `const assert = require('node:assert/strict');
const { Before, Then } = require('@cucumber/cucumber');

Before({ tags: '@skip' }, () => 'skipped');
Then('{int} + {int} is {int}', (a, b, sum) => assert.equal(a + b, sum));
`,
};

/** The block as its page shows it, as `file`; a block whose first line names its file must name this one. */
function asWritten(block: string, file: string): Record<string, string> {
  const code = docBlock(block);
  const named = /^\/\/ ([\w.-]+\.\w+)\b/.exec(code)?.[1];
  if (named !== undefined) expect(named, `the file ${block} names on its first line`).toBe(file);
  return { [file]: code };
}

/**
 * The command a block's first line gives after `label` (`// x.cjs, then: npx mocha --reporter ./x.cjs`),
 * as program and arguments: `npx` and a closing `…` dropped, the program taken from the
 * project's bins (Node itself for `node`).
 */
function commandIn(block: string, label: string): string[] {
  const first = docBlock(block).split('\n')[0]!;
  const at = first.indexOf(label);
  expect(at, `the first line of ${block} gives a command after "${label}"`).toBeGreaterThan(-1);
  const words = first
    .slice(at + label.length)
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '…');
  if (words[0] === 'npx') words.shift();
  const [program, ...args] = words;
  return [program === 'node' ? process.execPath : bin(program!), ...args];
}

function bin(name: string): string {
  return path.join(workDir, 'project', 'node_modules', '.bin', name);
}

/** The five tests of every test file: one passes, one nested passes, one fails, one skipped, one todo. */
function mathTest(
  kind: 'vitest' | 'jest' | 'playwright' | 'mocha-cjs' | 'mocha-esm' | 'node-test' | 'jasmine',
): string {
  // Mocha and the node:test file bring their own expect; Mocha and Jasmine have no todo: a
  // pending test without a function is theirs; Playwright's fixme is its "not written yet".
  const assertExpect =
    'const expect = (actual) => ({ toBe: (expected) => assert.equal(actual, expected) });\n';
  const imports = {
    vitest: "import { describe, expect, it } from 'vitest';\n",
    jest: '',
    playwright: "import { expect, test } from '@playwright/test';\n",
    'mocha-cjs': `const assert = require('node:assert/strict');\n${assertExpect}`,
    'mocha-esm': `import assert from 'node:assert/strict';\n${assertExpect}`,
    'node-test': `const assert = require('node:assert/strict');\nconst { describe, it } = require('node:test');\n${assertExpect}`,
    jasmine: '',
  }[kind];
  const [describe, it] = kind === 'playwright' ? ['test.describe', 'test'] : ['describe', 'it'];
  const todo =
    kind === 'playwright'
      ? "test.fixme('is to do', () => {})"
      : kind.startsWith('mocha') || kind === 'jasmine'
        ? "it('is to do')"
        : "it.todo('is to do')";
  return `${imports}
${describe}('Math', () => {
  ${it}('adds', () => {
    expect(1 + 1).toBe(2);
  });
  ${describe}('carries', () => {
    ${it}('over ten', () => {
      expect(9 + 1).toBe(10);
    });
  });
  ${it}('fails on purpose', () => {
    expect(1 + 1).toBe(3);
  });
  ${kind === 'jasmine' ? 'xit' : `${it}.skip`}('is skipped', () => {});
  ${todo};
});
`;
}

/** What every documented run stores for its math file. */
function mathResults({ suite, todo = 'skipped', lowerCase = false, flat = false }: DocumentedRun) {
  const name = (testCase: string) => (lowerCase ? testCase.toLowerCase() : testCase);
  return [
    { testSuite: suite, testCase: name('Math > adds'), status: 'passed' },
    {
      testSuite: suite,
      testCase: name(flat ? 'Math > over ten' : 'Math > carries > over ten'),
      status: 'passed',
    },
    { testSuite: suite, testCase: name('Math > fails on purpose'), status: 'failed' },
    { testSuite: suite, testCase: name('Math > is skipped'), status: 'skipped' },
    { testSuite: suite, testCase: name('Math > is to do'), status: todo },
  ].sort(byCase);
}

// ---------------------------------------------------------------------------------------
// Helpers

interface Manifest {
  name: string;
  version: string;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function packageDir(dir: PackageDir): string {
  return path.join(PACKAGES_DIR, dir);
}

function workspaceVersion(name: string): string {
  const dir = PACKAGES.find((candidate) => packageName(candidate) === name)!;
  return (JSON.parse(fs.readFileSync(path.join(packageDir(dir), 'package.json'), 'utf8')) as Manifest)
    .version;
}

/** `src/commands/serve.ts` → `commands/serve` and what tsc makes of it, for every source module of the package. */
function sourceModules(dir: PackageDir): { module: string; js: string; dts: string }[] {
  const src = path.join(packageDir(dir), 'src');
  return (fs.readdirSync(src, { recursive: true }) as string[])
    .filter((file) => /\.c?ts$/.test(file) && !/\.d\.c?ts$/.test(file))
    .map((file) => {
      const commonJs = file.endsWith('.cts');
      return {
        module: file
          .replace(/\.c?ts$/, '')
          .split(path.sep)
          .join('/'),
        js: commonJs ? '.cjs' : '.js',
        dts: commonJs ? '.d.cts' : '.d.ts',
      };
    });
}

/** Every file path in main, types, bin and exports. */
function manifestTargets(manifest: Manifest): string[] {
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect([manifest.main, manifest.types, manifest.bin, manifest.exports]);
  return targets;
}

async function tarList(tarball: string): Promise<string[]> {
  const listing = succeeded(await run('tar', ['-tzf', tarball]), `tar -tzf ${tarball}`);
  return listing.stdout.split('\n').filter(Boolean);
}

async function tarFile(tarball: string, file: string): Promise<string> {
  return succeeded(await run('tar', ['-xzOf', tarball, file]), `tar -xzOf ${tarball} ${file}`).stdout;
}

/** A fresh file for a CI summary, as GitHub Actions gives each step. */
function summaryFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-packed-summary-'));
  spoolDirs.push(dir);
  return path.join(dir, 'step-summary.md');
}

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

function byCase(a: { testCase: string }, b: { testCase: string }): number {
  return a.testCase < b.testCase ? -1 : a.testCase > b.testCase ? 1 : 0;
}
