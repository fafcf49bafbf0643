import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './scripts/longest-first-sequencer.js';

// The one test config of the monorepo. Integration tests spawn real Vitest and Jest
// processes, so timeouts are generous; files run two at a time (CI has 2 cores), three in
// `main`, whose files wait on real runners and services as much as they work.
// `pnpm test` runs the `main` project; `pnpm test:compat` the version matrix.
// Tests run the packages' source, not their build: each package's exports map has a `source`
// condition (left out when published), so an edit in `src` is what the next test runs.
// Tests that spawn a framework, the CLI or a script that imports a package run its build:
// they are the `main` project (e2e/ and every `*.e2e.test.ts`), whose globalSetup
// (scripts/build.mjs) brings the build up to date before its first test. The `unit` project
// runs source only and builds nothing: `vitest run --project unit` on a fresh clone works.
// Every project's globalSetup checks that no process a test started outlives the run
// (packages/test-utils/src/leftover-processes.ts).
const sourceFirst = ['source', 'module', 'node', 'development|production'];
const EXCLUDED = ['**/node_modules/**', '**/fixtures/**', '**/dist/**'];

// `pnpm test` (projects unit and main) proves each rule once where it lives, and end to end
// under real Vitest, with Jest's own files. `pnpm test:compat` runs every other runner: compat/
// (each runner's own suite, the packed install, the demo, the version matrix), the service's
// pages in Chromium, and the other runners' legs (Jest's among them) of the e2e files that hold
// a rule for every runner (packages/test-utils/src/legs.ts): those run in both projects
// (docs/design/testing.md#shared-e2e-files).
const SHARED_MATRICES = [
  'e2e/api-key-never-leaks.test.ts',
  'e2e/cancelled-runs.test.ts',
  'e2e/errors-outside-tests.test.ts',
  'e2e/failure-details.test.ts',
  'e2e/identity-across-projects.test.ts',
  'e2e/merged-reports.test.ts',
  'e2e/planned-shards.test.ts',
  'e2e/private-ca-and-mutual-tls.test.ts',
  'e2e/refused-shards.test.ts',
  'e2e/reporting-a-project.test.ts',
  'e2e/service-misbehaving.test.ts',
  'e2e/shards-into-one-run.test.ts',
  'e2e/streaming-while-tests-run.test.ts',
  'e2e/watch-mode.test.ts',
  'packages/cli/test/upload-tap.e2e.test.ts',
];
const BROWSER_PAGES = 'packages/server/test/pages/pages.browser.e2e.test.ts';

export default defineConfig({
  resolve: { conditions: sourceFirst },
  ssr: { resolve: { conditions: sourceFirst } },
  test: {
    exclude: EXCLUDED,
    // Longer than test-utils' RUN_TIMEOUT_MS (180 s), so a stuck run fails with its own output.
    testTimeout: 240_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Longest files first, by committed times: a fresh clone has no results cache to order by.
    sequence: { sequencer: LongestFirstSequencer },
    setupFiles: [
      'packages/test-utils/src/one-process-signals.ts',
      'packages/test-utils/src/test-scope-setup.ts',
      // `pnpm test:time`: each file's CPU time (scripts/file-cpu-setup.mjs), and with --spawns
      // every process a test starts (scripts/spawn-log-setup.mjs).
      ...(process.env.TESTRUN_FILE_CPU ? ['scripts/file-cpu-setup.mjs'] : []),
      ...(process.env.TESTRUN_SPAWN_LOG ? ['scripts/spawn-log-setup.mjs'] : []),
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/*.test.ts', 'packages/*/test/**/*.test.ts'],
          // A worker's files share one process and its loaded modules: importing the packages'
          // source again for each of ~100 files was half of this project's CPU time.
          isolate: false,
          // Its tests mostly wait (loopback requests, retry backoffs, PostgreSQL): they run beside
          // `main`'s (one group, one pool of three), filling the cores its files leave idle.
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
          globalSetup: ['packages/test-utils/src/leftover-processes.ts'],
          exclude: [...EXCLUDED, '**/*.e2e.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/*.e2e.test.ts', 'packages/*/test/**/*.e2e.test.ts', 'e2e/**/*.test.ts'],
          exclude: [...EXCLUDED, BROWSER_PAGES],
          provide: { otherRunnersLegs: false },
          // As `unit`: one process a worker (20 of these files: 66 s of CPU → 43 s). What a
          // file starts it ends (test-scope.ts), and the leftover check names what it did not.
          isolate: false,
          // Its files wait as much as they work (a browser starting, Retry-After, a slow last
          // file): with two at a time the cores idled 8 % of the project's ~380 s; with three,
          // 2 %, and the suite took 364 s instead of 408 s (pnpm test:time, quiet, same CPU).
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
          globalSetup: ['packages/test-utils/src/leftover-processes.ts', 'scripts/build.mjs'],
        },
      },
      {
        extends: true,
        test: {
          name: 'compat',
          include: [
            'compat/*.test.ts',
            'compat/packed/*.test.ts',
            'compat/playwright/*.test.ts',
            BROWSER_PAGES,
            ...SHARED_MATRICES,
          ],
          provide: { otherRunnersLegs: true },
          sequence: { groupOrder: 2 },
          globalSetup: [
            'packages/test-utils/src/leftover-processes.ts',
            'scripts/build.mjs',
            // compat/packed/'s files share one pack and one npm install (oncePerRun).
            'packages/test-utils/src/once-per-run-setup.ts',
          ],
        },
      },
    ],
  },
});
