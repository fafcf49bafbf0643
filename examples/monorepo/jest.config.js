/** @type {import('jest').Config} */
// Three projects: money, and the text package twice, as on Node and on an edge runtime.
// Each result's testSuite starts with its project's displayName: [text-edge] packages/text/src/slug.test.js.
const text = { rootDir: '<rootDir>/packages/text', testEnvironment: 'node' };

module.exports = {
  // The one line that reports the runs (TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment).
  reporters: ['default', '@testrun/jest'],
  projects: [
    { displayName: 'money', rootDir: '<rootDir>/packages/money', testEnvironment: 'node' },
    { ...text, displayName: 'text-node' },
    { ...text, displayName: 'text-edge', setupFiles: ['<rootDir>/edge-setup.js'] },
  ],
};
