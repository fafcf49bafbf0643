import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The one line that reports this project's test runs (TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment).
    reporters: ['default', '@testrun/vitest'],
  },
});
