import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  FIXTURES_DIR,
  identities,
  jsonFile,
  missingBrowser,
  npmEnv,
  type PackageDir,
  PUBLISHED_PACKAGES,
  packTarballs,
  type RunOutcome,
  reporterEnv,
  resultsIn,
  runProcess,
  shownState,
  startTestServer,
  succeeded,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Installing any @testrun package never changes what a project already resolves
// (docs/design/installing.md): every packed package, installed with
// npm into projects of the shapes users have, leaves every package the project had where it
// was, at the version it was, and the project's own imports resolving as before. First the
// shape of webdriverio/cucumber-boilerplate (WebdriverIO 9.1.2, its Cucumber framework, step
// files that import Cucumber 10, which only the framework depends on, and Jest 29 beside it),
// where @testrun/webdriverio once made npm move Cucumber 10 away from the step files, with
// Mocha 10 added; its scenarios then run as before and are stored, under `wdio` and under
// `cucumber-js`. Then the other runners, each at the oldest version still supported. Needs the
// npm registry (the npm cache in os.tmpdir() keeps a second run offline) and `pnpm build`.

const missing = missingBrowser();
if (missing) console.warn(`skipping WebdriverIO's runs in the installed projects: ${missing}`);

const INSTALL_TIMEOUT_MS = 600_000;
const RUN_TIMEOUT_MS = 300_000;

let workDir: string;
let tarballs: Record<PackageDir, string>;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-installs-'));
  tarballs = await packTarballs(path.join(workDir, 'tarballs'));
}, 120_000);

// Two projects' node_modules take a while to remove.
afterAll(() => {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
}, 300_000);

/** Where each package of the project is installed, and its version: npm's own record of node_modules. */
type Installed = Map<string, string>;

function installed(project: string): Installed {
  const lock = JSON.parse(
    fs.readFileSync(path.join(project, 'node_modules', '.package-lock.json'), 'utf8'),
  ) as {
    packages: Record<string, { version?: string }>;
  };
  return new Map(Object.entries(lock.packages).map(([location, entry]) => [location, entry.version ?? '']));
}

/** Every package the project had that is no longer where it was at the version it was, as `location: before → after`. */
function movedOrChanged(before: Installed, after: Installed): string[] {
  return [...before]
    .filter(([location, version]) => after.get(location) !== version)
    .map(([location, version]) => `${location}: ${version} → ${after.get(location) ?? '(gone)'}`);
}

/** What the project's own code imports by these names resolves to: the package's folder and version, or nothing. */
function resolvedImports(project: string, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      const manifest = path.join(project, 'node_modules', name, 'package.json');
      const version = fs.existsSync(manifest)
        ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version
        : '(not found)';
      return [name, version];
    }),
  );
}

/** `npm install` in `project`, as a user runs it: no audit, scripts off (WebdriverIO's drivers download themselves in theirs). */
async function npmInstall(project: string, args: readonly string[] = []): Promise<RunOutcome> {
  const outcome = await runProcess(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', ...args],
    { cwd: project, env: npmEnv(), timeoutMs: INSTALL_TIMEOUT_MS - 30_000 },
  );
  return succeeded(outcome, `npm install ${args.join(' ')}`);
}

/** `npm install -D` of every packed package: what a user installs, all of it at once. */
function installEveryPackage(project: string): Promise<RunOutcome> {
  return npmInstall(project, ['-D', ...PUBLISHED_PACKAGES.map((dir) => tarballs[dir])]);
}

describe('the shape of webdriverio/cucumber-boilerplate (WebdriverIO 9.1.2, Cucumber 10 under its framework, Jest 29), with Mocha 10', () => {
  const FIXTURE = path.join(FIXTURES_DIR, 'installs', 'webdriverio-cucumber');
  /** The boilerplate's package.json at 805b91f (its devDependencies as they are), with Mocha 10 beside Jest 29. */
  const PACKAGE_JSON = {
    name: 'cucumber-boilerplate',
    version: '2.0.0',
    private: true,
    type: 'module',
    devDependencies: {
      '@types/jest': '^29.5.13',
      '@wdio/cli': '9.1.2',
      '@wdio/config': '9.1.2',
      '@wdio/cucumber-framework': '9.1.2',
      '@wdio/globals': '9.1.2',
      '@wdio/local-runner': '9.1.2',
      '@wdio/spec-reporter': '9.1.2',
      '@wdio/static-server-service': '9.1.2',
      'http-server': '^14.1.1',
      jest: '^29.7.0',
      'jest-circus': '^29.7.0',
      mocha: '^10.8.2',
      'npm-run-all2': '^6.2.3',
      'ts-jest': '^29.2.5',
      'ts-node': '^10.9.2',
      typescript: '^5.6.2',
      webdriverio: '9.1.2',
    },
  };
  /** What the project's code imports: its dependencies, and Cucumber, which its step files import though only the framework depends on it. */
  const IMPORTS = [...Object.keys(PACKAGE_JSON.devDependencies), '@cucumber/cucumber'];

  let project: string;
  let before: { installed: Installed; imports: Record<string, string> };
  let after: { installed: Installed; imports: Record<string, string> };
  let install: RunOutcome;
  let server: TestServer;
  const runs = {} as Record<'wdioBefore' | 'wdioAfter' | 'cucumberBefore' | 'cucumberAfter', RunOutcome>;

  /** The project's own bins, as `npx` runs them. */
  const wdio = (env: Record<string, string | undefined>) =>
    runProcess(
      process.execPath,
      [path.join(project, 'node_modules/@wdio/cli/bin/wdio.js'), 'run', 'wdio.conf.mjs'],
      {
        cwd: project,
        env: npmEnv(env),
        timeoutMs: RUN_TIMEOUT_MS,
      },
    );
  const cucumberJs = (args: readonly string[], env: Record<string, string | undefined> = {}) =>
    runProcess(
      process.execPath,
      [
        path.join(project, 'node_modules/.bin/cucumber-js'),
        'plain/features',
        '--import',
        'plain/steps/*.mjs',
        ...args,
      ],
      { cwd: project, env: npmEnv(env), timeoutMs: RUN_TIMEOUT_MS },
    );

  beforeAll(
    async () => {
      server = await startTestServer();
      project = path.join(workDir, 'boilerplate');
      fs.cpSync(FIXTURE, project, { recursive: true });
      fs.writeFileSync(path.join(project, 'package.json'), jsonFile(PACKAGE_JSON));
      await npmInstall(project);
      before = { installed: installed(project), imports: resolvedImports(project, IMPORTS) };
      // The suite as it ran before the reporter: what it must run like after.
      [runs.wdioBefore, runs.cucumberBefore] = await Promise.all([
        missing
          ? Promise.resolve({ code: null, signal: null, stdout: '', stderr: '' } as RunOutcome)
          : wdio({}),
        cucumberJs([]),
      ]);
      install = await installEveryPackage(project);
      after = { installed: installed(project), imports: resolvedImports(project, IMPORTS) };
      [runs.wdioAfter, runs.cucumberAfter] = await Promise.all([
        missing
          ? Promise.resolve({ code: null, signal: null, stdout: '', stderr: '' } as RunOutcome)
          : wdio(reporterEnv(server, { FIXTURE_TESTRUN: '1', TESTRUN_TAGS: 'wdio' })),
        cucumberJs(['--format', '@testrun/cucumber'], reporterEnv(server, { TESTRUN_TAGS: 'cucumber-js' })),
      ]);
    },
    INSTALL_TIMEOUT_MS * 2 + RUN_TIMEOUT_MS * 2,
  );

  afterAll(() => server?.close());

  it('installs every @testrun package without moving, changing or removing a package the project had', () => {
    expect(before.installed.get('node_modules/@cucumber/cucumber'), 'Cucumber 10 at the top, before').toMatch(
      /^10\./,
    );
    expect(movedOrChanged(before.installed, after.installed), install.stdout + install.stderr).toEqual([]);
    expect(install.stderr).not.toMatch(/ERESOLVE|peer dep/i);
    // And the packages are all there, each once, from its tarball.
    const ours = [...after.installed.keys()].filter((location) =>
      /^node_modules\/@testrun\/[^/]+$/.test(location),
    );
    expect(ours.sort()).toEqual(
      PUBLISHED_PACKAGES.map((dir) =>
        dir === 'newman' ? 'node_modules/@testrun/newman-reporter-testrun' : `node_modules/@testrun/${dir}`,
      ).sort(),
    );
  });

  it("leaves the project's imports resolving as before: Cucumber 10 at the top, where its step files import it", () => {
    expect(after.imports).toEqual(before.imports);
    expect(before.imports['@cucumber/cucumber']).toMatch(/^10\./);
  });

  it.skipIf(missing)(
    'runs its scenarios under wdio as it did without @testrun/webdriverio, and stores each in one run',
    async () => {
      const { wdioBefore, wdioAfter } = runs;
      const output = `${wdioAfter.stdout}\n${wdioAfter.stderr}`;
      // WebdriverIO's own verdict and spec reporter's count, the same before and after.
      const specSummary = (outcome: RunOutcome) => /Spec Files:\s*(.*?) in \d/.exec(outcome.stdout)?.[1];
      expect([wdioAfter.code, specSummary(wdioAfter)], output).toEqual([
        wdioBefore.code,
        specSummary(wdioBefore),
      ]);
      // One spec file fails on purpose; the other passes, with the reporter as without.
      expect([wdioBefore.code, specSummary(wdioBefore)]).toEqual([
        1,
        '1 passed, 1 failed, 2 total (100% completed)',
      ]);
      const [run] = (await server.server.store.runs()).filter((stored) => stored.tags.includes('wdio'));
      expect(identities(await server.server.store.results(run!.id)), output).toEqual(
        identities([
          ...resultsIn('src/features/title.feature', [
            ['Title > reads the title', 'passed'],
            ['Title > reads a wrong title, on purpose', 'failed'],
            ['Title > reads the heading Welcome > Example #1.1', 'passed'],
            ['Title > waits for a step nobody wrote', 'failed'],
          ]),
          ...resultsIn('src/features/demo.feature', [['Demo > opens the page', 'passed']]),
        ]),
      );
      expect(await shownState(server, run!.id)).toEqual({ api: 'failed', page: 'failed' });
    },
  );

  it('runs cucumber-js 10 with --format @testrun/cucumber as it ran alone, and stores its results', async () => {
    const { cucumberBefore, cucumberAfter } = runs;
    const output = `${cucumberAfter.stdout}\n${cucumberAfter.stderr}`;
    const summary = (outcome: RunOutcome) => /^\d+ scenarios? \(.*\)$/m.exec(outcome.stdout)?.[0];
    expect([cucumberAfter.code, summary(cucumberAfter)], output).toEqual([
      cucumberBefore.code,
      summary(cucumberBefore),
    ]);
    expect(summary(cucumberBefore)).toBe('2 scenarios (1 failed, 1 passed)');
    expect(testrunLines(output)).toEqual([expect.stringMatching(/^testrun: 2 results → run \S+/)]);
    const [run] = (await server.server.store.runs()).filter((stored) => stored.tags.includes('cucumber-js'));
    // The User-Agent names the Cucumber that ran: the project's 10.
    expect(
      server.server.requests.find(
        (request) => request.route === 'createRun' && request.userAgent?.includes('cucumber/'),
      )?.userAgent,
    ).toMatch(/\(cucumber\/10\./);
    expect(identities(await server.server.store.results(run!.id)), output).toEqual(
      identities(
        resultsIn('plain/features/cart.feature', [
          ['Cart > adds an item', 'passed'],
          ['Cart > counts wrong, on purpose', 'failed'],
        ]),
      ),
    );
  });
});

describe('a project with the other runners, each at the oldest version still supported', () => {
  /** Vitest 3.2, Playwright 1.50, Jasmine 5, Newman 5.3, TestCafe 3 and Cucumber 10 as a project's own dependencies. */
  const PACKAGE_JSON = {
    name: 'oldest-runners',
    version: '1.0.0',
    private: true,
    devDependencies: {
      '@cucumber/cucumber': '~10.8.0',
      '@playwright/test': '~1.50.1',
      jasmine: '~5.0.0',
      newman: '~5.3.2',
      testcafe: '~3.0.0',
      vitest: '~3.2.0',
    },
  };
  const IMPORTS = Object.keys(PACKAGE_JSON.devDependencies);

  let project: string;
  let before: { installed: Installed; imports: Record<string, string> };
  let after: { installed: Installed; imports: Record<string, string> };
  let install: RunOutcome;

  beforeAll(async () => {
    project = path.join(workDir, 'oldest-runners');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), jsonFile(PACKAGE_JSON));
    await npmInstall(project);
    before = { installed: installed(project), imports: resolvedImports(project, IMPORTS) };
    install = await installEveryPackage(project);
    after = { installed: installed(project), imports: resolvedImports(project, IMPORTS) };
  }, INSTALL_TIMEOUT_MS * 2);

  it('installs every @testrun package without moving, changing or removing a package the project had', () => {
    expect(movedOrChanged(before.installed, after.installed), install.stdout + install.stderr).toEqual([]);
    expect(install.stderr).not.toMatch(/ERESOLVE|peer dep/i);
  });

  it("leaves the project's imports resolving as before", () => {
    expect(after.imports).toEqual(before.imports);
    expect(Object.values(before.imports)).not.toContain('(not found)');
  });
});
