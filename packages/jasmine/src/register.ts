// `@testrun/jasmine/register`: one line in jasmine.json (`"helpers"` or `"requires"`) adds the
// reporter, with its options from the environment (TESTRUN_*).
import cluster from 'node:cluster';
import { guardHook, lineOnce } from '@testrun/core';
import { MAIN_REPORTER_VAR, reporterMade, TestrunJasmineReporter } from './reporter.js';

interface JasmineGlobal {
  getEnv(): { addReporter(reporter: unknown): void };
}

/** What register says in --parallel mode, where a helper runs in each worker and cannot add a reporter. */
export const PARALLEL_REGISTER_LINE =
  "@testrun/jasmine/register reports nothing with --parallel: Jasmine loads helpers in its workers, which cannot add reporters. Add the reporter in a JavaScript config file instead (spec/support/jasmine.mjs: reporters: [new TestrunJasmineReporter()], from '@testrun/jasmine'); see the @testrun/jasmine README.";

/** Whether this process is a worker of `jasmine --parallel`. */
function inParallelWorker(): boolean {
  return cluster.isWorker && /jasmine[\\/]bin[\\/]worker\.js$/.test(process.argv[1] ?? '');
}

guardHook(() => {
  if (inParallelWorker()) {
    // Said once for the run, not once per worker; not at all when the main process has the
    // reporter (a config file's `reporters`).
    if (cluster.worker?.id === 1 && !process.env[MAIN_REPORTER_VAR]) lineOnce(PARALLEL_REGISTER_LINE);
    return;
  }
  // A config file's `reporters` made one (config files load before `requires` and helpers):
  // a second would report the same specs into a second run.
  if (reporterMade()) return;
  const jasmine = (globalThis as { jasmine?: JasmineGlobal }).jasmine;
  if (typeof jasmine?.getEnv !== 'function') {
    lineOnce(
      '@testrun/jasmine/register found no `jasmine` global (globals: false, or loaded outside Jasmine): add the reporter yourself, jasmine.getEnv().addReporter(new TestrunJasmineReporter()).',
    );
    return;
  }
  jasmine.getEnv().addReporter(new TestrunJasmineReporter());
});
