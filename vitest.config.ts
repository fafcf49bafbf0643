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

export default defineConfig({
  resolve: { conditions: sourceFirst },
  ssr: { resolve: { conditions: sourceFirst } },
  test: {
    exclude: ['**/node_modules/**', '**/fixtures/**', '**/dist/**'],
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
          // Its tests mostly wait (loopback requests, retry backoffs, PostgreSQL), so four at a
          // time keep two cores busy; it runs before `main` (a group of its own), which has two.
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
          globalSetup: ['packages/test-utils/src/leftover-processes.ts'],
          exclude: ['**/node_modules/**', '**/fixtures/**', '**/dist/**', '**/*.e2e.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/*.e2e.test.ts', 'packages/*/test/**/*.e2e.test.ts', 'e2e/**/*.test.ts'],
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
          include: ['compat/*.test.ts'],
          sequence: { groupOrder: 1 },
          globalSetup: ['packages/test-utils/src/leftover-processes.ts', 'scripts/build.mjs'],
        },
      },
    ],
  },
});
