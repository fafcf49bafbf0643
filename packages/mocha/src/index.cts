// What require('@testrun/mocha') returns: the reporter class itself. Mocha loads reporters
// with require() and constructs what it gets; an ES module's namespace is no constructor
// ("this._reporter is not a constructor").
import reporter = require('./reporter.js');

export = reporter.TestrunReporter;
