import { defineConfig } from 'vitest/config';

// The one test config of the monorepo. Integration tests spawn real Vitest and Jest
// processes, so timeouts are generous and files run two at a time (CI has 2 cores).
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/fixtures/**', '**/dist/**'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
