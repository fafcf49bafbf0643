// one-line-reporter.mjs as CommonJS: the same loader, without the ES module's own steps.
module.exports = async function* oneLineReporter(source) {
  for await (const _event of source);
  // A reporter is a generator of the text it writes: this one writes none.
  yield '';
};
