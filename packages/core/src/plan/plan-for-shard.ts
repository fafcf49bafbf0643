import { openService } from '../delivery/service.js';
import type { Shard } from '../options/ci-tags.js';
import { type ResolvedConfig, resolveConfig } from '../options/config.js';
import { defaultPlanKey } from '../options/plan-key.js';
import { buildBranches } from './build-branches.js';
import { type FileToPlan, planShard, type ShardPlan } from './plan-shard.js';

export interface PlanForShardInput {
  /** Every file every shard was given, named as the reporters name them. */
  files: readonly FileToPlan[];
  shard: Shard;
  /** Reporter options (the reporter's own, or the CLI's flags), read as a reporter reads them: options, then TESTRUN_*, then defaults. */
  options: unknown;
  env: NodeJS.ProcessEnv;
  /** Where the `project` default (the nearest package.json) is looked up from. */
  rootDir: string;
  userAgent: string;
  /** Given on the command line: they win over the options. */
  key?: string | undefined;
  branch?: string | undefined;
  defaultBranch?: string | undefined;
}

export interface PlanForShard {
  plan: ShardPlan;
  /** The plan key the service was asked by, when it was. */
  key: string | undefined;
  /** The options as resolved, when reporting is configured: the API key to redact from lines. */
  config: ResolvedConfig | undefined;
}

/**
 * A shard's plan as `testrun plan` and the sequencers make it: the service's, asked with the
 * reporters' configuration under the build's plan key; else the split by size, with why.
 * Never throws.
 */
export async function planForShard(input: PlanForShardInput): Promise<PlanForShard> {
  const { files, shard, env } = input;
  const resolution = resolveConfig({ options: input.options, env, rootDir: input.rootDir });
  const unavailable = (reason: string, config?: ResolvedConfig): Promise<PlanForShard> =>
    planShard({
      files,
      shard,
      project: '',
      key: '',
      branches: { branch: undefined, defaultBranch: undefined },
      source: { unavailable: reason },
    }).then((plan) => ({ plan, key: undefined, config }));
  switch (resolution.state) {
    case 'off':
      return unavailable('reporting is off (TESTRUN_ENABLED)');
    case 'no-key':
      return unavailable('TESTRUN_API_KEY is not set');
    case 'invalid':
      return unavailable(resolution.errors.map((error) => error.message).join(' '));
  }
  const { config } = resolution;
  const key = input.key ?? config.planKey ?? defaultPlanKey(env, config.runId);
  if (key === undefined) {
    return unavailable(
      'no CI build was found for the shards to share a plan by, and no plan key was given (--plan-key, TESTRUN_PLAN_KEY)',
      config,
    );
  }
  const detected = buildBranches(env);
  const service = openService({ ...config, userAgent: input.userAgent, env });
  service.deadline.start(config.flushTimeout);
  try {
    const plan = await planShard({
      files,
      shard,
      project: config.project,
      key,
      branches: {
        branch: input.branch ?? detected.branch,
        defaultBranch: input.defaultBranch ?? detected.defaultBranch,
      },
      source: { http: service.http, policy: config, deadline: service.deadline },
    });
    return { plan, key, config };
  } finally {
    await service.close();
  }
}
