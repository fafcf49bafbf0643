import { defineConfig } from 'vitest/config';

// The one test config of the monorepo. Integration tests spawn real Vitest and Jest
// processes, so timeouts are generous and files run two at a time (CI has 2 cores).
// `pnpm test` runs the `main` project; `pnpm test:compat` the version matrix.
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/fixtures/**', '**/dist/**'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['packages/*/test/**/*.test.ts', 'e2e/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'compat', include: ['compat/*.test.ts'] },
      },
    ],
  },
});
