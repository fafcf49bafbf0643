import { type CiInfo, knownProvider } from './ci-providers.js';

export interface Shard {
  index: number;
  count: number;
}

/**
 * Tags that say where a run came from. The common providers are read from their own variables
 * (ci-providers.ts); any other is env-ci's (semantic-release's library, 30+ providers, kept current
 * by its users). env-ci is costly to load
 * (bench/README.md#7-fixed-cost-per-run-fixed-costmjs-and-the-http-stack-alone-transport-childmjs)
 * and can spawn `git`, so it is loaded only in a CI that is none of those; on a developer's machine
 * nothing of it runs. Outside CI only the shard tag is added: a developer's machine is no CI.
 */
export async function ciTags(env: NodeJS.ProcessEnv, cwd: string, shard?: Shard): Promise<string[]> {
  const tags: string[] = [];
  const ci = knownProvider(env) ?? (inCi(env) ? await detect(env, cwd) : undefined);
  if (ci) {
    tags.push(`ci:${ci.service}`);
    if (ci.branch) tags.push(`branch:${ci.branch}`);
    if (ci.commit) tags.push(`commit:${ci.commit}`);
    if (ci.build) tags.push(`build:${ci.build}`);
    // Where to look: the service's pages link the build, commit and branch tags with these.
    if (ci.buildUrl) tags.push(`build-url:${ci.buildUrl}`);
    if (ci.repoUrl) tags.push(`repo-url:${ci.repoUrl}`);
  }
  if (shard && shard.count > 1) tags.push(`shard:${shard.index}/${shard.count}`);
  return tags;
}

/**
 * The variables by which env-ci recognises each provider (its services/*.js `detect`),
 * plus the `CI` that nearly every provider sets. None set: not CI.
 */
const CI_VARIABLES = [
  'CI',
  'APPVEYOR',
  'BITBUCKET_BUILD_NUMBER',
  'BITRISE_IO',
  'BUDDY_WORKSPACE_ID',
  'BUILDKITE',
  'BUILD_BUILDURI',
  'CF_BUILD_ID',
  'CF_PAGES',
  'CIRCLECI',
  'CIRRUS_CI',
  'CI_NAME',
  'CODEBUILD_BUILD_ID',
  'DISTELLI_APPNAME',
  'DRONE',
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'JB_SPACE_EXECUTION_NUMBER',
  'JENKINS_URL',
  'NETLIFY',
  'NOW_GITHUB_DEPLOYMENT',
  'SAILCI',
  'SCREWDRIVER',
  'SCRUTINIZER',
  'SEMAPHORE',
  'SHIPPABLE',
  'TEAMCITY_VERSION',
  'TRAVIS',
  'VELA',
  'VERCEL',
  'WERCKER_MAIN_PIPELINE_STARTED',
  'bamboo_agentId',
];

export function inCi(env: NodeJS.ProcessEnv): boolean {
  return CI_VARIABLES.some((name) => env[name]);
}

async function detect(env: NodeJS.ProcessEnv, cwd: string): Promise<CiInfo | undefined> {
  try {
    const { default: envCi } = await import('env-ci');
    const found = envCi({ env, cwd }) as {
      isCi: boolean;
      service?: string;
      branch?: string;
      prBranch?: string;
      commit?: string;
      build?: string | number;
      buildUrl?: string;
    };
    if (!found.isCi || !found.service || found.service === 'git') return undefined;
    return {
      // env-ci names some services in camelCase (azurePipelines); tags read better in kebab-case.
      service: found.service.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
      branch: found.prBranch || found.branch || undefined,
      commit: found.commit || undefined,
      build: found.build === undefined || found.build === '' ? undefined : String(found.build),
      buildUrl: found.buildUrl && /^https?:\/\//.test(found.buildUrl) ? found.buildUrl : undefined,
    };
  } catch {
    return undefined;
  }
}
