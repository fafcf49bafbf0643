import { defineConfig } from 'vitest/config';

// Three projects: money, and the text package twice, as on Node and on an edge runtime.
// Each result's testSuite starts with its project's name: [text-edge] packages/text/src/slug.test.js.
const text = { root: './packages/text', globals: true };

export default defineConfig({
  test: {
    // The one line that reports the runs (TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment).
    reporters: ['default', '@testrun/vitest'],
    projects: [
      { test: { name: 'money', root: './packages/money', globals: true } },
      { test: { ...text, name: 'text-node' } },
      { test: { ...text, name: 'text-edge', setupFiles: ['./edge-setup.js'] } },
    ],
  },
});
