/** Where a CI run came from, as its provider's variables say. */
export interface CiInfo {
  /** In kebab-case: github, gitlab, azure-pipelines… */
  service: string;
  /** The branch being built: a pull request's own branch, when it is one. */
  branch?: string | undefined;
  commit?: string | undefined;
  build?: string | undefined;
}

type Env = NodeJS.ProcessEnv;

interface Provider {
  service: string;
  detect(env: Env): boolean;
  read(env: Env): Omit<CiInfo, 'service'>;
}

/** `refs/heads/main` → `main`; `refs/pull/7/merge` stays as it is. */
function branchOf(ref: string | undefined): string | undefined {
  return ref?.replace(/^refs\/heads\//, '');
}

/**
 * The providers most CI runs happen on, read from their own variables: no git, no module
 * to load (loading env-ci costs more CPU than the rest of the reporter: bench/README.md, "Fixed cost"). The same names and values env-ci gives,
 * except that a pull request's branch comes from the provider's variable rather than its
 * event file or git. Every other provider is env-ci's (ci-tags.ts).
 */
const PROVIDERS: readonly Provider[] = [
  {
    service: 'github',
    detect: (env) => Boolean(env.GITHUB_ACTIONS),
    read: (env) => ({
      branch: env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || branchOf(env.GITHUB_REF),
      commit: env.GITHUB_SHA,
      build: env.GITHUB_RUN_ID,
    }),
  },
  {
    service: 'gitlab',
    detect: (env) => Boolean(env.GITLAB_CI),
    read: (env) => ({
      branch: env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME || env.CI_COMMIT_REF_NAME,
      commit: env.CI_COMMIT_SHA,
      build: env.CI_PIPELINE_ID,
    }),
  },
  {
    service: 'circleci',
    detect: (env) => Boolean(env.CIRCLECI),
    read: (env) => ({ branch: env.CIRCLE_BRANCH, commit: env.CIRCLE_SHA1, build: env.CIRCLE_BUILD_NUM }),
  },
  {
    service: 'buildkite',
    detect: (env) => Boolean(env.BUILDKITE),
    read: (env) => ({
      branch: env.BUILDKITE_BRANCH,
      commit: env.BUILDKITE_COMMIT,
      build: env.BUILDKITE_BUILD_NUMBER,
    }),
  },
  {
    service: 'jenkins',
    detect: (env) => Boolean(env.JENKINS_URL),
    read: (env) => ({
      branch:
        env.ghprbSourceBranch ||
        env.gitlabSourceBranch ||
        env.GIT_LOCAL_BRANCH ||
        env.GIT_BRANCH ||
        env.gitlabBranch ||
        env.BRANCH_NAME,
      commit: env.ghprbActualCommit || env.GIT_COMMIT,
      build: env.BUILD_NUMBER,
    }),
  },
  {
    service: 'azure-pipelines',
    detect: (env) => Boolean(env.BUILD_BUILDURI),
    read: (env) => ({
      branch: branchOf(env.SYSTEM_PULLREQUEST_SOURCEBRANCH || env.BUILD_SOURCEBRANCH),
      commit: env.BUILD_SOURCEVERSION,
      build: env.BUILD_BUILDNUMBER,
    }),
  },
  {
    service: 'bitbucket',
    detect: (env) => Boolean(env.BITBUCKET_BUILD_NUMBER),
    read: (env) => ({
      branch: env.BITBUCKET_BRANCH,
      commit: env.BITBUCKET_COMMIT,
      build: env.BITBUCKET_BUILD_NUMBER,
    }),
  },
  {
    service: 'travis',
    detect: (env) => Boolean(env.TRAVIS),
    read: (env) => ({
      branch: env.TRAVIS_PULL_REQUEST_BRANCH || env.TRAVIS_BRANCH,
      commit: env.TRAVIS_COMMIT,
      build: env.TRAVIS_BUILD_NUMBER,
    }),
  },
];

/** The run's CI provider when it is one of PROVIDERS; undefined otherwise (another CI, or none). */
export function knownProvider(env: Env): CiInfo | undefined {
  const provider = PROVIDERS.find(({ detect }) => detect(env));
  if (!provider) return undefined;
  const { branch, commit, build } = provider.read(env);
  return {
    service: provider.service,
    branch: branch || undefined,
    commit: commit || undefined,
    build: build || undefined,
  };
}
