import { Logger, RunReporter, type TestrunOptions } from '@testrun/core';
import type { Reporter, SerializedError, TestModule, Vitest } from 'vitest/node';
import { mapTestModule } from './map-module.js';

export type TestrunVitestOptions = TestrunOptions;

/**
 * Vitest reporter: streams each test file's results to the service as the file ends.
 * Every hook catches its own errors: a reporting problem must never fail a test run.
 */
export class TestrunReporter implements Reporter {
  private readonly options: TestrunVitestOptions | undefined;
  private readonly logger = new Logger();
  private run: RunReporter | undefined;
  /** Modules already reported in this run, so the end-of-run sweep adds none twice. */
  private readonly reportedModules = new Set<string>();

  constructor(options?: TestrunVitestOptions) {
    this.options = options;
  }

  onInit(vitest: Vitest): void {
    this.guard(() => {
      const { root, watch, shard } = vitest.config;
      this.run = new RunReporter({
        options: this.options,
        framework: { name: 'vitest', version: vitest.version },
        rootDir: root,
        watchMode: watch,
        shard: shard ? { index: shard.index, count: shard.count } : undefined,
      });
    });
  }

  onTestRunStart(): void {
    this.guard(() => {
      this.reportedModules.clear();
      this.run?.startRun();
    });
  }

  onTestModuleEnd(module: TestModule): void {
    this.guard(() => this.report(module));
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): Promise<void> {
    const run = this.run;
    if (!run) return;
    try {
      // Some Vitest versions skip the module hooks of a file that fails to import.
      for (const module of testModules) this.guard(() => this.report(module));
      await run.endRun(unhandledErrorNotes(unhandledErrors.length));
      // Set only with failOnError; core has printed the reason.
      if (run.error) process.exitCode = 1;
    } catch (error) {
      this.logger.line(`internal error at the end of the run: ${(error as Error).message}`);
    }
  }

  private report(module: TestModule): void {
    if (!this.run?.active || this.reportedModules.has(module.id)) return;
    this.reportedModules.add(module.id);
    this.run.addFile(mapTestModule(module));
  }

  private guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.logger.line(`internal error, results may be incomplete: ${(error as Error).message}`);
    }
  }
}

/** Errors outside any test fail a Vitest run but have no test to attach to: say so in the summary. */
function unhandledErrorNotes(count: number): string[] {
  if (count === 0) return [];
  return [`${count} unhandled ${count === 1 ? 'error' : 'errors'}, not counted as results`];
}
