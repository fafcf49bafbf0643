// What require('@testrun/newman-reporter-testrun') returns: the reporter class itself. Newman
// loads `-r @testrun/testrun` with require() and constructs what it gets; an ES module's
// namespace is no constructor. TestrunNewmanReporter rides along on it.
import reporter = require('./reporter.js');

const TestrunNewmanReporter = reporter.TestrunNewmanReporter as typeof reporter.TestrunNewmanReporter & {
  TestrunNewmanReporter: typeof reporter.TestrunNewmanReporter;
};
TestrunNewmanReporter.TestrunNewmanReporter = reporter.TestrunNewmanReporter;

export = TestrunNewmanReporter;
