// What require('testcafe-reporter-testrun') returns (the package installed under TestCafe's
// plugin name): the plugin factory itself. TestCafe loads `-r testrun` with require() and calls
// what it gets; an ES module's namespace is no function. createReporter and testrunReporter
// ride along on it.
import reporter = require('./reporter.js');

const testrun = reporter.createReporter() as ReturnType<typeof reporter.createReporter> & {
  createReporter: typeof reporter.createReporter;
  testrunReporter: typeof reporter.testrunReporter;
};
testrun.createReporter = reporter.createReporter;
testrun.testrunReporter = reporter.testrunReporter;

export = testrun;
