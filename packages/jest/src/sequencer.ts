import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AggregatedResult, Config, Test, TestContext } from '@jest/reporters';
import { line, type Shard, type TestrunOptions, userAgent } from '@testrun/core';
import { describePlan, filesToPlan, planForShard, splitBySize } from '@testrun/core/plan';
import { jestVersion } from './jest-version.js';

// `--shard i/n`, balanced: Jest's own sequencer splits files by a hash of their paths; this
// one asks the service for the build's plan (docs/sharding.md), so the shards end together.
// A separate entry point (`testSequencer: '@testrun/jest/sequencer'`), loaded only by a
// config that names it: a run that does not shard pays nothing for it. Everything else
// (the order within the shard, the failure and duration cache, --onlyFailures) is Jest's own
// sequencer's, found where Jest itself loads it.

interface SequencerOptions {
  contexts: ReadonlyArray<TestContext>;
  globalConfig: Config.GlobalConfig;
}

interface JestSequencer {
  shard?(tests: Test[], options: { shardIndex: number; shardCount: number }): Test[] | Promise<Test[]>;
  sort(tests: Test[]): Test[] | Promise<Test[]>;
  allFailedTests(tests: Test[]): Test[] | Promise<Test[]>;
  cacheResults(tests: Test[], results: AggregatedResult): void;
}

type SequencerClass = new (options: SequencerOptions) => JestSequencer;

export default class TestrunSequencer implements JestSequencer {
  private readonly jest: JestSequencer | undefined;
  private readonly globalConfig: Config.GlobalConfig;

  constructor(options: SequencerOptions) {
    this.globalConfig = options.globalConfig;
    const Default = jestsOwnSequencer(options.globalConfig?.rootDir);
    this.jest = Default ? new Default(options) : undefined;
  }

  async shard(
    tests: Test[],
    { shardIndex, shardCount }: { shardIndex: number; shardCount: number },
  ): Promise<Test[]> {
    const shard = { index: shardIndex, count: shardCount };
    const mine = await plannedShare(this.globalConfig, tests, shard);
    return tests.filter((test) => mine.has(test.path));
  }

  sort(tests: Test[]): Test[] | Promise<Test[]> {
    return this.jest ? this.jest.sort(tests) : tests;
  }

  allFailedTests(tests: Test[]): Test[] | Promise<Test[]> {
    return this.jest ? this.jest.allFailedTests(tests) : tests;
  }

  cacheResults(tests: Test[], results: AggregatedResult): void {
    this.jest?.cacheResults(tests, results);
  }
}

// What require('@testrun/jest/sequencer') returns, as Jest loads a testSequencer (see index.ts).
export { TestrunSequencer, TestrunSequencer as 'module.exports' };

/** The paths of this shard's tests, as the plan places their files (a file in several projects goes with its file). */
async function plannedShare(
  globalConfig: Config.GlobalConfig,
  tests: readonly Test[],
  shard: Shard,
): Promise<Set<string>> {
  const rootDir = globalConfig.rootDir;
  const projectRoot = new Map(tests.map((test) => [test.path, test.context.config.rootDir]));
  const files = filesToPlan(
    tests.map((test) => test.path),
    rootDir,
    (file) => projectRoot.get(file),
  );
  const pathOf = new Map(files.map((file) => [file.file, file.path]));
  let plan: Awaited<ReturnType<typeof planForShard>>['plan'];
  try {
    ({ plan } = await planForShard({
      files,
      shard,
      options: reporterOptions(globalConfig),
      env: process.env,
      rootDir,
      userAgent: userAgent(`jest/${jestVersion(rootDir)}`),
    }));
  } catch (error) {
    plan = splitBySize(files, shard, `the plan failed (${(error as Error).message})`);
  }
  // The shard must not guess: Jest fails the run with this, before any test runs.
  if (plan.kind === 'differs') throw new Error(`testrun: ${plan.message}`);
  line(describePlan(plan, shard, files.length));
  const mine = new Set(plan.files.map((file) => pathOf.get(file.file)!));
  return new Set(tests.filter((test) => mine.has(test.path)).map((test) => test.path));
}

/** The options of `['@testrun/jest', options]` among the configured reporters, if there. */
function reporterOptions(globalConfig: Config.GlobalConfig): TestrunOptions | undefined {
  for (const entry of globalConfig.reporters ?? []) {
    if (Array.isArray(entry) && entry[0] === '@testrun/jest' && typeof entry[1] === 'object') {
      return entry[1] as TestrunOptions;
    }
  }
  return undefined;
}

/**
 * Jest's own sequencer, `@testrun/jest` does not depend on it: where Jest is installed it is
 * there (npm hoists it; under pnpm it is reached through Jest's own packages, as Jest reaches
 * it). Without it, the shard's files run in the plan's order and --onlyFailures runs all.
 */
function jestsOwnSequencer(rootDir: string | undefined): SequencerClass | undefined {
  const bases = [
    rootDir && path.join(rootDir, 'package.json'),
    path.join(process.cwd(), 'package.json'),
    realScript(),
  ];
  for (const base of bases) {
    if (!base) continue;
    const found =
      loadThrough(base, ['@jest/test-sequencer']) ??
      loadThrough(base, ['jest', '@jest/core', 'jest-config', '@jest/test-sequencer']);
    if (found) return found;
  }
  return undefined;
}

function loadThrough(base: string, chain: readonly string[]): SequencerClass | undefined {
  try {
    let from = base;
    for (const name of chain.slice(0, -1)) from = createRequire(from).resolve(name);
    const loaded = createRequire(from)(chain.at(-1)!) as { default?: SequencerClass } | SequencerClass;
    return typeof loaded === 'function' ? loaded : loaded.default;
  } catch {
    return undefined;
  }
}

/** The script this process runs (Jest's bin), links resolved. */
function realScript(): string | undefined {
  try {
    return process.argv[1] ? fs.realpathSync(process.argv[1]) : undefined;
  } catch {
    return undefined;
  }
}
