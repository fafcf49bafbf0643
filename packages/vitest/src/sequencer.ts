import { line, type Shard, type TestrunOptions, userAgent } from '@testrun/core';
import { describePlan, filesToPlan, planForShard, splitBySize } from '@testrun/core/plan';
import { BaseSequencer, type TestSpecification, type Vitest } from 'vitest/node';

// `--shard i/n`, balanced: Vitest's own shard() splits files by a hash of their paths; this
// one asks the service for the build's plan (docs/sharding.md), so the shards end together.
// A separate entry point (@testrun/vitest/sequencer), loaded only by a config that names it:
// a run that does not shard pays nothing for it.

/** The plans made in this process, by shard and files: the reporter asks the sequencer again for its share. */
const planned = new Map<string, Promise<Set<string>>>();

/**
 * Vitest's sequencer, sharding by the service's plan. Its options are the reporter's
 * (`['@testrun/vitest', options]` in `reporters`), else `TESTRUN_*`; `testrunSequencer(options)`
 * gives others.
 */
export class TestrunSequencer extends BaseSequencer {
  /** Set by testrunSequencer(options). */
  protected readonly testrunOptions: TestrunOptions | undefined = undefined;

  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const shard = this.ctx.config.shard;
    if (!shard) return files;
    const options = this.testrunOptions ?? reporterOptions(this.ctx);
    const mine = await shareOf(this.ctx, files, shard, options);
    return files.filter((spec) => mine.has(spec.moduleId));
  }
}

/** TestrunSequencer with options of its own (the reporter's are read otherwise). */
export function testrunSequencer(options: TestrunOptions): typeof TestrunSequencer {
  return class extends TestrunSequencer {
    protected override readonly testrunOptions = options;
  };
}

function shareOf(
  vitest: Vitest,
  specs: readonly TestSpecification[],
  shard: Shard,
  options: TestrunOptions | undefined,
): Promise<Set<string>> {
  const modules = [...new Set(specs.map((spec) => spec.moduleId))].sort();
  const id = `${shard.index}/${shard.count}\0${modules.join('\0')}`;
  let share = planned.get(id);
  if (!share) {
    share = plannedShare(vitest, specs, modules, shard, options);
    planned.set(id, share);
  }
  return share;
}

/**
 * The module ids of this shard, as the plan places their files. Every project's copy of a file
 * runs in the shard of the file: a file's time in the service is its time in every project.
 */
async function plannedShare(
  vitest: Vitest,
  specs: readonly TestSpecification[],
  modules: readonly string[],
  shard: Shard,
  options: TestrunOptions | undefined,
): Promise<Set<string>> {
  const rootOf = new Map(specs.map((spec) => [spec.moduleId, spec.project.config.root]));
  const files = filesToPlan(modules, vitest.config.root, (module) => rootOf.get(module));
  const pathOf = new Map(files.map((file) => [file.file, file.path]));
  let result: Awaited<ReturnType<typeof planForShard>>['plan'];
  try {
    ({ plan: result } = await planForShard({
      files,
      shard,
      options,
      env: process.env,
      rootDir: vitest.config.root,
      userAgent: userAgent(`vitest/${vitest.version}`),
    }));
  } catch (error) {
    result = splitBySize(files, shard, `the plan failed (${(error as Error).message})`);
  }
  // The shard must not guess: Vitest fails the run with this, before any file runs.
  if (result.kind === 'differs') throw new Error(`testrun: ${result.message}`);
  line(describePlan(result, shard, files.length));
  return new Set(result.files.map((file) => pathOf.get(file.file)!));
}

/** The options of `['@testrun/vitest', options]` among the configured reporters, if there. */
function reporterOptions(vitest: Vitest): TestrunOptions | undefined {
  const reporters = (vitest.config.reporters ?? []) as unknown[];
  for (const entry of reporters) {
    if (Array.isArray(entry) && entry[0] === '@testrun/vitest' && typeof entry[1] === 'object') {
      return entry[1] as TestrunOptions;
    }
  }
  return undefined;
}
