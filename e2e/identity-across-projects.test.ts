import path from 'node:path';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  type ExpectedResult,
  expectNamesShared,
  fixtures,
  identities,
  inPnpmTest,
  jsonReport,
  legsHere,
  onlyProject,
  PARITY_PROJECT_RESULTS,
  PARITY_PROJECTS,
  PARITY_PROJECTS_CONFIG,
  PARITY_REPORTER_OPTIONS,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  readJsonReport,
  reporterEnv,
  resultsIn,
  resultsTagged,
  runCli,
  runVitest,
  startTestServer,
  type TestServer,
  VITEST_AND_JEST,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a result is called when a configuration has several projects, or lives away from
// the files it runs: the same test must get the same name on every machine, whichever way
// the run was filtered, and two different tests must never share one.

describe.each(legsHere(VITEST_AND_JEST, ({ name }) => name))(
  '$name running the same files in two projects',
  ({ name, run }) => {
    let server: TestServer;
    const reports = PARITY_PROJECTS.map((project) => ({ project, report: jsonReport(name) }));
    let outcomes: RunOutcome[];

    beforeAll(async () => {
      server = await startTestServer();
      const config = ['--config', PARITY_PROJECTS_CONFIG[name]];
      const env = (tag: string, extra: Record<string, string> = {}) =>
        reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS, TESTRUN_TAGS: tag, ...extra });
      outcomes = await Promise.all([
        run({ cwd: fixtures.parity, args: config, env: env('all') }),
        ...reports.map(({ project, report }) =>
          run({
            cwd: fixtures.parity,
            args: [...config, ...onlyProject(name, project), ...report.args],
            env: env(project, report.env),
          }),
        ),
      ]);
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('stores every parity result once per project, the project named before the file', async () => {
      expect(identities(await resultsTagged(server, 'all'))).toEqual(identities(PARITY_PROJECT_RESULTS));
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

    it('leaves every exit code at 1, for the fixture fails on purpose', () => {
      expect(outcomes.map((outcome) => outcome.code)).toEqual([1, 1, 1]);
    });
  },
);

/** What the monorepo fixture stores when both packages run, each a project of its own. */
const MONOREPO_RESULTS: readonly ExpectedResult[] = [
  ...resultsIn('[cart] packages/cart/src/index.test.js', [
    ['cart > adds an item', 'passed'],
    ['cart > fails on purpose', 'failed'],
  ]),
  ...resultsIn('[pricing] packages/pricing/src/index.test.js', [
    ['pricing > adds tax', 'passed'],
    ['pricing > rounds', 'passed'],
    ['pricing > rounds', 'passed'],
  ]),
];

describe.each(legsHere(VITEST_AND_JEST, ({ name }) => name))(
  '$name running a monorepo configured three ways',
  ({ name, run }) => {
    let server: TestServer;
    const cwd = fixtures.monorepo;
    const subfolderConfig =
      name === 'vitest' ? 'scripts/vitest/vitest.config.mjs' : 'scripts/jest/jest.config.cjs';
    const reports = ['cart', 'pricing'].map((project) => ({ project, report: jsonReport(name) }));

    beforeAll(async () => {
      server = await startTestServer();
      const env = (tag: string, extra: Record<string, string> = {}) =>
        reporterEnv(server, { TESTRUN_TAGS: tag, ...extra });
      // One run both packages report into, each running its own suite, as a CI job per package would.
      const created = await runCli(['create-run', '--framework', name, '--tags', 'shared', '--no-ci-tags'], {
        env: { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url },
      });
      const shared = env('shared', { TESTRUN_RUN_ID: created.stdout.trim() });
      await Promise.all([
        run({ cwd: path.join(cwd, 'packages', 'cart'), env: shared }),
        run({ cwd: path.join(cwd, 'packages', 'pricing'), env: shared }),
        run({ cwd, env: env('root') }),
        run({ cwd, args: ['--config', subfolderConfig], env: env('subfolder') }),
        ...reports.map(({ project, report }) =>
          run({ cwd, args: [...onlyProject(name, project), ...report.args], env: env(project, report.env) }),
        ),
      ]);
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('names files from the repository, project first, with one config at the root', async () => {
      expect(identities(await resultsTagged(server, 'root'))).toEqual(identities(MONOREPO_RESULTS));
    });

    it('names them the same when the config lives in scripts/ and its projects set the root above it', async () => {
      expect(identities(await resultsTagged(server, 'subfolder'))).toEqual(identities(MONOREPO_RESULTS));
    });

    it('names a package run on its own from the workspace root, as the root config does, without a project label', async () => {
      // packages/cart ran from its own folder, into the shared run.
      const shared = await resultsTagged(server, 'shared');
      const cart = shared.filter((result) => result.testSuite.startsWith('packages/cart/'));
      expect(identities(cart)).toEqual(
        identities(
          resultsIn('packages/cart/src/index.test.js', [
            ['cart > adds an item', 'passed'],
            ['cart > fails on purpose', 'failed'],
          ]),
        ),
      );
    });

    it('tells the packages apart in one run both report into, each running its own suite', async () => {
      // Both packages have a src/index.test.js: named from the workspace root, they never collide.
      expect(identities(await resultsTagged(server, 'shared'))).toEqual(
        identities(
          MONOREPO_RESULTS.map((result) => ({
            ...result,
            testSuite: result.testSuite.replace(/^\[\w+\] /, ''),
          })),
        ),
      );
    });

    it('keeps the full run names in a run filtered to one project', async () => {
      for (const project of ['cart', 'pricing']) {
        const expected = MONOREPO_RESULTS.filter((result) => result.testSuite.startsWith(`[${project}] `));
        expect(identities(await resultsTagged(server, project)), project).toEqual(identities(expected));
      }
    });

    it('never stores an absolute path, a backslash or a path that climbs out of the repository', async () => {
      const suites = (await server.server.store.allResults()).map((result) =>
        result.testSuite.replace(/^\[[^\]]*\] /, ''),
      );
      expect(suites.length).toBeGreaterThan(0);
      expect(
        suites.filter((suite) => path.isAbsolute(suite) || suite.startsWith('../') || suite.includes('\\')),
      ).toEqual([]);
    });

    it('gives two results one name only when the framework reports the same file, project and full name', async () => {
      // pricing has two tests named "rounds": the framework lists both, and both results share a name.
      const frameworkTests = reports.flatMap(({ project, report }) => readJsonReport(report.file, project));
      expectNamesShared(await resultsTagged(server, 'root'), frameworkTests);
    });
  },
);

if (inPnpmTest())
  describe('Vitest type-checking files that also run as usual', () => {
    let server: TestServer;
    const report = jsonReport('vitest');

    beforeAll(async () => {
      server = await startTestServer();
      await runVitest({
        cwd: fixtures.typecheck,
        env: reporterEnv(server, { ...report.env, TESTRUN_TAGS: 'all' }),
      });
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('names the type-checked run of a file apart from its usual run, and a type-only file plainly', async () => {
      expect(identities(await resultsTagged(server, 'all'))).toEqual(
        identities([
          ...resultsIn('sum.test.ts', [['sum > adds', 'passed']]),
          ...resultsIn('sum.test.ts (typecheck)', [['sum > adds', 'passed']]),
          ...resultsIn('types.test-d.ts', [['a string stays a string', 'passed']]),
        ]),
      );
    });

    it('gives two results one name only when the framework reports the same file, project and full name', async () => {
      // Vitest's JSON report puts the file's name above a type-checked test's titles.
      expectNamesShared(await resultsTagged(server, 'all'), readJsonReport(report.file));
    });
  });

describe.each(legsHere(VITEST_AND_JEST, ({ name }) => name))(
  'the monorepo example under $name',
  ({ name, run }) => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer();
      await run({
        cwd: path.join(import.meta.dirname, '..', 'examples', 'monorepo'),
        env: reporterEnv(server),
      });
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('stores each file once per project that ran it, named as under the other runner', async () => {
      const [stored] = await server.server.store.runs();
      expect(stored?.framework).toBe(name);
      // The example is a package of this repository's workspace: its files are named from the repository.
      const slug = (project: string) =>
        resultsIn(`[${project}] examples/monorepo/packages/text/src/slug.test.js`, [
          ['slugify > lowercases and joins words with dashes', 'passed'],
          ['slugify > drops accents', 'passed'],
          ['knows which runtime it is in', 'passed'],
        ]);
      const expected = [
        ...resultsIn('[money] examples/monorepo/packages/money/src/money.test.js', [
          ['money > sums cents', 'passed'],
          ['money > formats cents as a price', 'passed'],
        ]),
        ...slug('text-node'),
        ...slug('text-edge'),
      ];
      expect(identities(await server.server.store.results(stored!.id))).toEqual(identities(expected));
    });
  },
);
