// The one line that reports this project's scenarios (TESTRUN_API_KEY and TESTRUN_BASE_URL
// from the environment); Cucumber's progress output stays.
module.exports = {
  default: { format: ['@testrun/cucumber'] },
};
