// The one line that reports this project's test runs (TESTRUN_API_KEY and TESTRUN_BASE_URL
// from the environment); Mocha's spec output stays.
module.exports = {
  spec: ['src/**/*.test.js'],
  reporter: '@testrun/mocha',
};
