// A Vitest reporter for scripts/test-time.mjs: one JSON line per test file, to the file named
// by TESTRUN_FILE_TIMES. Vitest's JSON reporter times a file by its tests alone, so a file that
// does its work in beforeAll (one real run, many assertions) would look free; here a file's
// time is its module's duration (hooks included) plus its collection, and the wall-clock
// moments it started and ended, so which heavy files ran side by side can be read back.
import fs from 'node:fs';
import path from 'node:path';

export default class FileTimesReporter {
  #out = process.env.TESTRUN_FILE_TIMES;
  #started = new Map();
  #root = process.cwd();

  onInit(vitest) {
    this.#root = vitest.config.root;
    if (this.#out) fs.writeFileSync(this.#out, '');
  }

  onTestModuleStart(testModule) {
    this.#started.set(testModule.moduleId, Date.now());
  }

  onTestModuleEnd(testModule) {
    if (!this.#out) return;
    const d = testModule.diagnostic();
    const tests = [...testModule.children.allTests()];
    const line = {
      file: path.relative(this.#root, testModule.moduleId),
      project: testModule.project.name,
      state: testModule.state(),
      ms: Math.round(d.duration + d.collectDuration + d.setupDuration),
      collectMs: Math.round(d.collectDuration),
      start: this.#started.get(testModule.moduleId) ?? null,
      end: Date.now(),
      tests: tests.length,
      failed: tests.filter((t) => t.result().state === 'failed').length,
    };
    fs.appendFileSync(this.#out, `${JSON.stringify(line)}\n`);
  }
}
