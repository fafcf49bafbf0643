/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // The one line that reports this project's test runs (TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment).
  reporters: ['default', '@testrun/jest'],
};
