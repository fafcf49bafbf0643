import type { Config, Reporter, Test, TestResult } from '@jest/reporters';
import { Logger, RunReporter, type TestrunOptions } from '@testrun/core';
import { jestVersion } from './jest-version.js';
import { mapTestFile } from './map-test-file.js';

export type TestrunJestOptions = TestrunOptions;

/**
 * Jest reporter: streams each test file's results to the service as the file ends.
 * Every hook catches its own errors: a reporting problem must never fail a test run.
 */
export class TestrunReporter implements Reporter {
  private readonly logger = new Logger();
  private readonly rootDir: string;
  private readonly run: RunReporter | undefined;

  constructor(globalConfig: Config.GlobalConfig, options?: TestrunJestOptions) {
    this.rootDir = globalConfig?.rootDir ?? process.cwd();
    this.run = this.guard(() => {
      const { watch, watchAll, shard } = globalConfig;
      return new RunReporter({
        options,
        framework: { name: 'jest', version: jestVersion(this.rootDir) },
        rootDir: this.rootDir,
        watchMode: Boolean(watch || watchAll),
        shard: shard ? { index: shard.shardIndex, count: shard.shardCount } : undefined,
      });
    });
  }

  onRunStart(): void {
    this.guard(() => this.run?.startRun());
  }

  onTestFileResult(_test: Test, testResult: TestResult): void {
    this.guard(() => {
      if (!this.run?.active) return;
      this.run.addResults(mapTestFile(this.rootDir, testResult), { file: testResult.testFilePath });
    });
  }

  /** Jest awaits this before it exits, so delivery finishes here. */
  async onRunComplete(): Promise<void> {
    const run = this.run;
    if (!run) return;
    try {
      // Jest fails the run on getLastError() but prints nothing about it: core prints the reason.
      await run.endRun();
    } catch (error) {
      this.logger.line(`internal error at the end of the run: ${(error as Error).message}`);
    }
  }

  /** Jest fails the run with this error; core sets one only when failOnError is on. */
  getLastError(): Error | undefined {
    return this.run?.error;
  }

  private guard<T>(action: () => T): T | undefined {
    try {
      return action();
    } catch (error) {
      this.logger.line(`internal error, results may be incomplete: ${(error as Error).message}`);
      return undefined;
    }
  }
}
