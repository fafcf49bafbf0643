// A node:test reporter that reads every event and writes nothing: what Node's loading a reporter
// named by --test-reporter costs, before any reporter's own code (node-test-parent.mjs).
export default async function* oneLineReporter(source) {
  for await (const _event of source);
  // A reporter is a generator of the text it writes: this one writes none.
  yield '';
}
