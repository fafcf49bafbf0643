// What require('@testrun/mocha') returns: the reporter class itself. Mocha loads reporters
// with require() and constructs what it gets; an ES module's namespace is no constructor
// ("this._reporter is not a constructor").
// createReporter and TestrunReporter ride along on it.
import reporter = require('./reporter.js');

const TestrunReporter = reporter.TestrunReporter as typeof reporter.TestrunReporter & {
  TestrunReporter: typeof reporter.TestrunReporter;
  createReporter: typeof reporter.createReporter;
};
TestrunReporter.TestrunReporter = reporter.TestrunReporter;
TestrunReporter.createReporter = reporter.createReporter;

export = TestrunReporter;
