import { sha256Hex } from '../sha256.js';
import { knownProvider } from './ci-providers.js';

type Env = NodeJS.ProcessEnv;

/**
 * What the shards of one CI build share their plan by, when no `planKey` is given: the
 * provider's build, and where the provider names it the job or stage whose parallel copies
 * the shards are (docs/sharding.md#every-shard-gets-the-same-plan). Coarse on purpose: two
 * sharded jobs that land on one key with different files are told so (409, a line naming
 * `--plan-key`), while shards of one job that landed on different keys would each plan
 * alone, and a run landing between them could give them different splits, which nothing
 * would tell. A re-run of a failed shard keeps its build, so it gets its files again.
 * Outside the providers core reads itself, the run shared through TESTRUN_RUN_ID; else none.
 */
export function defaultPlanKey(env: Env, runId?: string): string | undefined {
  const ci = knownProvider(env);
  const build = ci ? BUILD_KEYS[ci.service]?.(env) : undefined;
  if (ci && build) return headerSafe(`${ci.service}:${build}`);
  return runId ? headerSafe(`run:${runId}`) : undefined;
}

/**
 * A key as a header and the plan request carry it (planKeyProblem): a character outside visible
 * ASCII (a GitLab stage named `tésts`, a space) percent-encoded, and a key past 200 characters
 * cut, with a hash of the whole so that two long keys stay apart. The same text in every shard.
 */
function headerSafe(key: string): string {
  const safe = key.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));
  if (safe.length <= 200) return safe;
  return `${safe.slice(0, 183)}~${sha256Hex(safe).slice(0, 16)}`;
}

/** `a:b:c` of the parts that are set; undefined when the first (the build) is not. */
function joined(...parts: (string | undefined)[]): string | undefined {
  if (!parts[0]) return undefined;
  return parts.filter(Boolean).join(':');
}

const BUILD_KEYS: Record<string, (env: Env) => string | undefined> = {
  // A matrix's legs share the run and the job's id; re-running failed jobs keeps both.
  github: (env) => joined(env.GITHUB_RUN_ID, env.GITHUB_REPOSITORY, env.GITHUB_JOB),
  // `parallel: 4` names its jobs `test 1/4`…, `parallel:matrix` by their variables: the stage is what they share.
  gitlab: (env) => joined(env.CI_PIPELINE_ID, env.CI_JOB_STAGE),
  // Parallel containers are one job of one workflow.
  circleci: (env) => joined(env.CIRCLE_WORKFLOW_ID ?? env.CIRCLE_BUILD_NUM, env.CIRCLE_JOB),
  buildkite: (env) => joined(env.BUILDKITE_BUILD_ID ?? env.BUILDKITE_BUILD_NUMBER),
  jenkins: (env) => joined(env.BUILD_TAG ?? env.BUILD_NUMBER),
  'azure-pipelines': (env) => joined(env.BUILD_BUILDID ?? env.BUILD_BUILDNUMBER),
  bitbucket: (env) => joined(env.BITBUCKET_PIPELINE_UUID ?? env.BITBUCKET_BUILD_NUMBER),
  travis: (env) => joined(env.TRAVIS_BUILD_ID ?? env.TRAVIS_BUILD_NUMBER),
};

/** What a plan key may be: visible ASCII and spaces, 1 to 200 characters (it goes in a header). */
export function planKeyProblem(key: string): string | undefined {
  if (/^[\x21-\x7e][\x20-\x7e]{0,199}$/.test(key) && key.trim() === key) return undefined;
  return `must be 1 to 200 visible ASCII characters (spaces inside only), got ${JSON.stringify(key.slice(0, 60))}`;
}
