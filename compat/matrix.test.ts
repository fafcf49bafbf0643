import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  CANCELLED_REPORTER_OPTIONS,
  cancelledRun,
  DOUBLES_BEFORE_THE_REPORTER,
  DOUBLES_IN_A_TEST,
  doubleEnv,
  expectDeliveredPast,
  expectNamesShared,
  FIXTURES_DIR,
  FRAMEWORKS,
  type Framework,
  fixtures,
  frameworkBin,
  identities,
  jsonReport,
  MOCHA_PARALLEL_ONLY_FILES,
  MOCHA_PARITY_RESULTS,
  NODE_TEST_FILES_RESULTS,
  nodeTestFixtures,
  OUTSIDE_TEST_CASES,
  onlyProject,
  PARITY_PROJECT_RESULTS,
  PARITY_PROJECTS,
  PARITY_PROJECTS_CONFIG,
  PARITY_REPORTER_OPTIONS,
  PASSING_RESULTS,
  REPORTER_OPTIONS_VAR,
  type RunOptions,
  type RunOutcome,
  readJsonReport,
  reporterEnv,
  resultsTagged,
  runNodeTest,
  startServerThatHoldsResults,
  startTestServer,
  type TestServer,
  tempDir,
  testrunLines,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The version matrix: the fixtures under every supported framework version, held to the
// same written-down results as the e2e tests (PARITY_RESULTS, PARITY_PROJECT_RESULTS;
// Playwright: its own form of the parity fixture and PLAYWRIGHT_PARITY_RESULTS) and to the
// same properties: a result's name is the same in a full and a filtered run, two tests share
// a name only when the framework reports the same file, project and full name, no name is
// absolute, and a run that failed outside its tests holds a failed result. Vitest 4, Jest
// 30, Playwright 1.65, Mocha 11 and node:test on this process's Node (20) are this repo's
// own. The others are installed in compat/<install>/; each fixture is copied there, so that
// the framework and the reporter resolve against that install's version; node:test's
// version is Node's, from the `node` package.

interface Leg {
  label: string;
  framework: Framework['name'];
  /** The version that must have run, as the reporter's User-Agent names it. */
  version: RegExp;
  /** A workspace package under compat/ that installs this version; none: the repo's own. */
  install?: string;
  /** Whether the install brings its own Node (the `node` package), which then runs the framework. */
  ownNode?: boolean;
  /** The Node major that must have run, when it is not this process's. */
  nodeMajor?: number;
}

const MATRIX: Leg[] = [
  { label: 'Vitest 3.2', framework: 'vitest', version: /^3\.2\./, install: 'vitest-3' },
  { label: 'Vitest 4', framework: 'vitest', version: /^4\./ },
  // Vitest 5 needs Node 22 or later.
  { label: 'Vitest 5', framework: 'vitest', version: /^5\./, install: 'vitest-5', ownNode: true },
  { label: 'Jest 29', framework: 'jest', version: /^29\./, install: 'jest-29' },
  { label: 'Jest 30', framework: 'jest', version: /^30\./ },
  { label: 'Playwright 1.50', framework: 'playwright', version: /^1\.50\./, install: 'playwright-1.50' },
  { label: 'Playwright 1.64', framework: 'playwright', version: /^1\.64\./, install: 'playwright-1.64' },
  { label: 'Playwright 1.65', framework: 'playwright', version: /^1\.65\./ },
  { label: 'Mocha 10', framework: 'mocha', version: /^10\./, install: 'mocha-10' },
  { label: 'Mocha 11', framework: 'mocha', version: /^11\./ },
  { label: 'Mocha 12', framework: 'mocha', version: /^12\./, install: 'mocha-12' },
  { label: 'node:test on Node 20', framework: 'node-test', version: /^20\./ },
  {
    label: 'node:test on Node 22',
    framework: 'node-test',
    version: /^22\./,
    install: 'node-22',
    ownNode: true,
    nodeMajor: 22,
  },
  {
    label: 'node:test on Node 24',
    framework: 'node-test',
    version: /^24\./,
    install: 'node-24',
    ownNode: true,
    nodeMajor: 24,
  },
];

/** The legs of the frameworks whose fixtures below (projects, monorepo, errors outside tests) are written for. */
const VITEST_AND_JEST = MATRIX.filter((leg) => leg.framework === 'vitest' || leg.framework === 'jest');

const COMPAT_DIR = path.dirname(fileURLToPath(import.meta.url));

function vitestOrJest(leg: Leg): 'vitest' | 'jest' {
  if (leg.framework !== 'vitest' && leg.framework !== 'jest')
    throw new Error(`${leg.label} has no such fixture`);
  return leg.framework;
}

function frameworkOf(leg: Leg): Framework {
  return FRAMEWORKS.find(({ name }) => name === leg.framework)!;
}

/** How to run `leg` on `fixture`: the fixture copied into the leg's install, its bin and Node. */
function legRun(leg: Leg, fixture: string, options: Omit<RunOptions, 'cwd'>): Promise<RunOutcome> {
  const framework = frameworkOf(leg);
  const run: RunOptions = { cwd: fixture, ...options };
  if (leg.install) {
    const installDir = path.join(COMPAT_DIR, leg.install);
    run.cwd = copyFixtureInto(installDir, fixture);
    run.bin = frameworkBin(framework.packageName, installDir, framework.binName);
    if (leg.ownNode) run.nodePath = frameworkBin('node', installDir);
  }
  return framework.run(run);
}

describe.each(MATRIX)('the parity fixture under $label', (leg) => {
  let server: TestServer;
  let outcome: RunOutcome;
  let alone: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    // Vitest's default, a process per file, which the fixture's config turns off for pnpm test's speed.
    const args = leg.framework === 'vitest' ? ['--isolate'] : [];
    [outcome, alone] = await Promise.all([
      legRun(leg, frameworkOf(leg).fixtures.parity, {
        args,
        env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS }),
      }),
      legRun(leg, frameworkOf(leg).fixtures.parity, { args, withoutReporter: true }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('ran that version of the framework', () => {
    const agents = new Set(server.server.requests.map((request) => request.userAgent));
    expect(agents.size, [...agents].join('\n')).toBe(1);
    const [, framework, version, node] =
      /\(([\w-]+)\/([^;]+); node\/([^)]+)\)$/.exec([...agents][0] ?? '') ?? [];
    expect(framework).toBe(leg.framework);
    expect(version).toMatch(leg.version);
    if (leg.nodeMajor) expect(Number(node?.split('.')[0])).toBe(leg.nodeMajor);
    else if (leg.ownNode) expect(Number(node?.split('.')[0])).toBeGreaterThanOrEqual(22);
    else expect(node).toBe(process.versions.node);
  });

  it('stores exactly the parity results, in one run', async () => {
    const runs = await server.server.store.runs();
    expect(runs.map((run) => run.framework)).toEqual([leg.framework]);
    const stored = await server.server.store.results(runs[0]!.id);
    expect(identities(stored), `${outcome.stdout}\n${outcome.stderr}`).toEqual(
      identities(frameworkOf(leg).parityResults),
    );
  });

  // The oracle of the exit codes pnpm test holds this repo's versions to (PLAYWRIGHT_OWN_EXIT_CODE among them).
  it('leaves the exit code as the framework sets it without the reporter, for the fixture fails on purpose', () => {
    expect(outcome.code, outcome.stderr).toBe(alone.code);
    // Mocha exits with its count of failures; the others with 1.
    if (leg.framework === 'mocha') expect(outcome.code).toBeGreaterThan(1);
    else expect(outcome.code).toBe(1);
  });
});

describe.each(MATRIX.filter((leg) => leg.framework === 'mocha'))(
  'the parity fixture run serially under $label',
  (leg) => {
    let server: TestServer;
    let outcome: RunOutcome;

    beforeAll(async () => {
      server = await startTestServer();
      // The files a serial run cannot share with the others (see MOCHA_PARALLEL_ONLY_FILES).
      const ignored = MOCHA_PARALLEL_ONLY_FILES.flatMap((file) => ['--ignore', file]);
      outcome = await legRun(leg, frameworkOf(leg).fixtures.parity, {
        args: ['--no-parallel', ...ignored],
        env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS }),
      });
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('names every result as the parallel run does', async () => {
      const [run] = await server.server.store.runs();
      const expected = MOCHA_PARITY_RESULTS.filter(
        (result) => !MOCHA_PARALLEL_ONLY_FILES.includes(result.testSuite),
      );
      expect(identities(await server.server.store.results(run!.id)), outcome.stderr).toEqual(
        identities(expected),
      );
    });
  },
);

describe.each(MATRIX.filter((leg) => leg.framework === 'node-test'))(
  "node:test's files fixture under $label",
  (leg) => {
    let server: TestServer;
    let outcome: RunOutcome;

    beforeAll(async () => {
      server = await startTestServer();
      outcome = await legRun(leg, nodeTestFixtures.files, { env: reporterEnv(server) });
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('names a file without tests, files failing outside their tests and subtests alike on every Node', async () => {
      const [run] = await server.server.store.runs();
      expect(identities(await server.server.store.results(run!.id)), outcome.stderr).toEqual(
        identities(NODE_TEST_FILES_RESULTS),
      );
    });
  },
);

describe.each(MATRIX.filter((leg) => leg.framework === 'node-test'))(
  'node --test-only under $label',
  (leg) => {
    let server: TestServer;
    let outcome: RunOutcome;

    beforeAll(async () => {
      server = await startTestServer();
      outcome = await legRun(leg, nodeTestFixtures.only, { args: ['--test-only'], env: reporterEnv(server) });
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    // Node 20 reports the tests --test-only leaves out as skipped; Node 22 and later do not
    // report them at all. The reporter stores what Node reports, no more.
    it('stores the test marked only as passed, and the others as Node reports them', async () => {
      const [run] = await server.server.store.runs();
      const runsAlone = { testSuite: 'only.test.js', testCase: 'runs alone', status: 'passed' };
      const leftOut = { testSuite: 'only.test.js', testCase: 'is left out', status: 'skipped' };
      expect(identities(await server.server.store.results(run!.id)), outcome.stderr).toEqual(
        (leg.nodeMajor ?? 20) >= 22 ? [runsAlone] : [leftOut, runsAlone],
      );
      expect(outcome.code).toBe(0);
    });
  },
);

// Every file in the runner's own process: the flag Node 22 calls experimental and 24 not.
describe.each(MATRIX.filter((leg) => leg.framework === 'node-test' && leg.nodeMajor))(
  'node --test with isolation none under $label',
  (leg) => {
    let server: TestServer;
    let outcome: RunOutcome;

    beforeAll(async () => {
      server = await startTestServer();
      const flag = leg.nodeMajor === 22 ? '--experimental-test-isolation=none' : '--test-isolation=none';
      outcome = await legRun(leg, nodeTestFixtures.passing, { args: [flag], env: reporterEnv(server) });
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('names every result by its own file, as an isolated run does', async () => {
      const [run] = await server.server.store.runs();
      expect(identities(await server.server.store.results(run!.id)), outcome.stderr).toEqual(
        identities(PASSING_RESULTS),
      );
      expect(outcome.code).toBe(0);
    });
  },
);

// The tests in the reporter's process, each with a double it installs and never undoes
// (compat/what-tests-do-to-their-process.test.ts has the other in-process runners). The fixture
// runs where it is: its doubles resolve from packages/test-utils; only Node is the leg's.
describe.each(MATRIX.filter((leg) => leg.framework === 'node-test' && leg.nodeMajor))(
  'node --test with isolation none under $label, with a test double installed and never undone',
  (leg) => {
    // Not fake-timers-first: node --test itself runs nothing with every clock faked before it starts.
    const doubles = [...DOUBLES_BEFORE_THE_REPORTER, ...DOUBLES_IN_A_TEST].filter(
      (double) => double !== 'fake-timers-first',
    );
    let server: TestServer;
    const outcomes = new Map<string, RunOutcome>();

    beforeAll(async () => {
      server = await startTestServer();
      const flag = leg.nodeMajor === 22 ? '--experimental-test-isolation=none' : '--test-isolation=none';
      const nodePath = frameworkBin('node', path.join(COMPAT_DIR, leg.install!));
      await Promise.all(
        doubles.map(async (double) => {
          const env = reporterEnv(server, doubleEnv(double));
          outcomes.set(double, await runNodeTest({ cwd: fixtures.doubles, args: [flag], env, nodePath }));
        }),
      );
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it.each(doubles)(
      '%s: stores every result once, on the first attempt, and keeps the exit code',
      async (double) => {
        await expectDeliveredPast(server, double, outcomes.get(double)!);
      },
    );
  },
);

describe.each(VITEST_AND_JEST)('the parity fixture in two projects under $label', (leg) => {
  let server: TestServer;
  let outcomes: RunOutcome[];
  const reports = PARITY_PROJECTS.map((project) => ({ project, report: jsonReport(vitestOrJest(leg)) }));

  beforeAll(async () => {
    server = await startTestServer();
    const config = ['--config', PARITY_PROJECTS_CONFIG[vitestOrJest(leg)]];
    const env = (tag: string, extra: Record<string, string> = {}) =>
      reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS, TESTRUN_TAGS: tag, ...extra });
    outcomes = await Promise.all([
      legRun(leg, fixtures.parity, { args: config, env: env('all') }),
      ...reports.map(({ project, report }) =>
        legRun(leg, fixtures.parity, {
          args: [...config, ...onlyProject(vitestOrJest(leg), project), ...report.args],
          env: env(project, report.env),
        }),
      ),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('stores every parity result once per project, the project named before the file', async () => {
    const output = outcomes.map((outcome) => `${outcome.stdout}\n${outcome.stderr}`).join('\n');
    expect(identities(await resultsTagged(server, 'all')), output).toEqual(
      identities(PARITY_PROJECT_RESULTS),
    );
  });

  it('names each result in a run filtered to its project as the full run does', async () => {
    for (const project of PARITY_PROJECTS) {
      const expected = PARITY_PROJECT_RESULTS.filter((result) =>
        result.testSuite.startsWith(`[${project}] `),
      );
      expect(identities(await resultsTagged(server, project)), project).toEqual(identities(expected));
    }
  });

  it('gives two results one name only when the framework reports the same file, project and full name', async () => {
    const frameworkTests = reports.flatMap(({ project, report }) => readJsonReport(report.file, project));
    expectNamesShared(await resultsTagged(server, 'all'), frameworkTests);
  });
});

describe.each(VITEST_AND_JEST)('a monorepo whose config lives in scripts/ under $label', (leg) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    const config =
      leg.framework === 'vitest' ? 'scripts/vitest/vitest.config.mjs' : 'scripts/jest/jest.config.cjs';
    await legRun(leg, fixtures.monorepo, { args: ['--config', config], env: reporterEnv(server) });
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('names every file from the repository, apart per package, never absolute', async () => {
    const [run] = await server.server.store.runs();
    const suites = new Set((await server.server.store.results(run!.id)).map((result) => result.testSuite));
    expect([...suites].sort()).toEqual([
      '[cart] packages/cart/src/index.test.js',
      '[pricing] packages/pricing/src/index.test.js',
    ]);
  });
});

describe.each(MATRIX.filter((leg) => leg.framework === 'vitest'))('type checking under $label', (leg) => {
  let server: TestServer;
  const report = jsonReport('vitest');

  beforeAll(async () => {
    server = await startTestServer();
    await legRun(leg, fixtures.typecheck, { env: reporterEnv(server, report.env) });
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('names the type-checked run of a file apart from its usual run', async () => {
    const [run] = await server.server.store.runs();
    const stored = await server.server.store.results(run!.id);
    expect(stored.map((result) => result.testSuite).sort()).toEqual([
      'sum.test.ts',
      'sum.test.ts (typecheck)',
      'types.test-d.ts',
    ]);
    expectNamesShared(stored, readJsonReport(report.file));
  });
});

/**
 * Cases where the framework exits without ending the run (Vitest 3.2 dies itself when a
 * worker is killed: "Channel closed"): no reporter hook stores the failure, so the exit
 * guard spools what it holds with a failed result of the run, and says so in one line.
 */
const EXITS_BEFORE_RUN_END: Record<string, readonly string[]> = { 'Vitest 3.2': ['worker-crash'] };

describe.each(VITEST_AND_JEST)('failures outside any test under $label', (leg) => {
  let server: TestServer;
  const outcomes = new Map<string, RunOutcome>();
  const alone = new Map<string, RunOutcome>();
  const exitsEarly = EXITS_BEFORE_RUN_END[leg.label] ?? [];

  beforeAll(async () => {
    server = await startTestServer();
    // Jest uses workers, as a bigger suite does (see e2e/errors-outside-tests.test.ts).
    const args = (fixtureCase: string) =>
      leg.framework === 'jest' ? ['-w', '2', `--cacheDirectory=${freshDir(leg, fixtureCase)}`] : [];
    await Promise.all(
      OUTSIDE_TEST_CASES.map(async (fixtureCase) => {
        const env = reporterEnv(server, { FIXTURE_CASE: fixtureCase, TESTRUN_TAGS: fixtureCase });
        outcomes.set(fixtureCase, await legRun(leg, fixtures.outsideTests, { args: args(fixtureCase), env }));
        alone.set(
          fixtureCase,
          await legRun(leg, fixtures.outsideTests, {
            args: args(`${fixtureCase}-alone`),
            withoutReporter: true,
            env: { FIXTURE_CASE: fixtureCase },
          }),
        );
      }),
    );
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('holds a failed result in every run the framework failed', async () => {
    const failed = OUTSIDE_TEST_CASES.filter((fixtureCase) => outcomes.get(fixtureCase)!.code !== 0);
    expect(failed).toEqual(OUTSIDE_TEST_CASES);
    const runs = await server.server.store.runs();
    const withoutFailure: string[] = [];
    for (const fixtureCase of failed) {
      if (exitsEarly.includes(fixtureCase)) continue;
      const run = runs.find((stored) => stored.tags.includes(fixtureCase));
      // Jest runs a throwing globalSetup before it creates any reporter: there is no run to hold it.
      if (!run) {
        if (!(leg.framework === 'jest' && fixtureCase === 'global-setup-throws'))
          withoutFailure.push(fixtureCase);
        continue;
      }
      const results = await server.server.store.results(run.id);
      if (!results.some((result) => result.status === 'failed')) withoutFailure.push(fixtureCase);
    }
    expect(withoutFailure).toEqual([]);
  });

  // e2e/errors-outside-tests.test.ts holds this repo's versions to the code these runs give.
  it('keeps the exit code each case gives without the reporter', () => {
    const codes = (runs: Map<string, RunOutcome>) =>
      OUTSIDE_TEST_CASES.map((fixtureCase) => [fixtureCase, runs.get(fixtureCase)!.code]);
    expect(codes(outcomes)).toEqual(codes(alone));
  });

  it.runIf(exitsEarly.length > 0)('says in one line when the framework exits before the run ends', () => {
    for (const fixtureCase of exitsEarly) {
      expect(testrunLines(outcomes.get(fixtureCase)!.stderr), fixtureCase).toEqual([
        expect.stringMatching(
          /^testrun: the process exited \(code 1\) before the run's results were delivered: \d+ results? and the run's end \(interrupted\) spooled to /,
        ),
      ]);
    }
  });
});

// How each framework's process ends on a cancel (its own code, or the signal) is the
// framework's: e2e/cancelled-runs.test.ts holds this repo's versions to a written-down table
// (ENDS_ITSELF_ON) beside every neighbour; here every supported version, with the reporter
// and without, must end alike.
describe.each(MATRIX)('$label cancelled by a signal mid-run', (leg) => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'ends on %s as it does without the reporter',
    async (signal) => {
      const server = await startServerThatHoldsResults();
      const env = reporterEnv(server, { FIXTURE_REPORTER_OPTIONS: CANCELLED_REPORTER_OPTIONS });
      const fixture = frameworkOf(leg).fixtures.cancelled;
      const [withReporter, without] = await Promise.all([
        legRun(leg, fixture, cancelledRun(env, signal)),
        legRun(leg, fixture, { ...cancelledRun({}, signal), withoutReporter: true }),
      ]);
      const end = (outcome: RunOutcome) => ({ code: outcome.code, signal: outcome.signal });
      expect(end(withReporter), withReporter.stderr).toEqual(end(without));
      expect(
        testrunLines(withReporter.stderr).some((line) => / spooled to /.test(line)),
        withReporter.stdout + withReporter.stderr,
      ).toBe(true);
    },
    AWAIT_RUNS_TIMEOUT_MS,
  );
});

/** A cache directory of its own, so Jest knows no timings and uses its workers. */
function freshDir(leg: Leg, name: string): string {
  return tempDir(`testrun-${leg.label}-${name}-`.replace(/[^\w-]+/g, '-'));
}

/** Fixtures copied in this process: runs of one leg share a copy, made once. */
const copied = new Set<string>();

/**
 * A fresh copy of `fixture` in `installDir`/fixture (gitignored), where that install resolves:
 * at its place below fixtures/, with the loose files of each folder above it (signal-listeners.cjs,
 * mocha/rc.cjs), which fixtures reach by relative paths. A fixture from elsewhere: by its name.
 */
function copyFixtureInto(installDir: string, fixture: string): string {
  const below = path.relative(FIXTURES_DIR, fixture);
  const inFixtures = !below.startsWith('..');
  const target = path.join(installDir, 'fixture', inFixtures ? below : path.basename(fixture));
  if (copied.has(target)) return target;
  copied.add(target);
  if (inFixtures) {
    for (let dir = path.dirname(below); ; dir = path.dirname(dir)) {
      copyLooseFiles(path.join(FIXTURES_DIR, dir), path.join(installDir, 'fixture', dir));
      if (dir === '.') break;
    }
  }
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(fixture, target, {
    recursive: true,
    // Vite's caches of the original, if any, belong to the repo's own Vitest.
    filter: (source) => path.basename(source) !== 'node_modules',
  });
  return target;
}

/** The files (not the folders) of `from`, copied into `to`. */
function copyLooseFiles(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.isFile()) fs.copyFileSync(path.join(from, entry.name), path.join(to, entry.name));
  }
}
