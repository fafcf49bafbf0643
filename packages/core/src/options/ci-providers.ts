/** Where a CI run came from, as its provider's variables say. */
export interface CiInfo {
  /** In kebab-case: github, gitlab, azure-pipelines… */
  service: string;
  /** The branch being built: a pull request's own branch, when it is one. */
  branch?: string | undefined;
  commit?: string | undefined;
  build?: string | undefined;
  /** The build's page, where the provider says it (for a link from the run's page). */
  buildUrl?: string | undefined;
  /** The repository's web page (https, no credentials), where the provider says it. */
  repoUrl?: string | undefined;
}

type Env = NodeJS.ProcessEnv;

interface Provider {
  service: string;
  detect(env: Env): boolean;
  read(env: Env): Omit<CiInfo, 'service'>;
}

/**
 * A git remote as the repository's web page: `git@github.com:o/r.git`, `ssh://git@host/o/r` and
 * `https://user:token@host/o/r.git` all give `https://host/o/r` (an http remote stays http, with
 * its port). Credentials never survive: the URL becomes a tag every reader of the service sees.
 * Anything else: undefined.
 */
export function repositoryWebUrl(remote: string | undefined): string | undefined {
  if (!remote) return undefined;
  const scp = /^[\w.-]+@([\w.-]+):(?!\/)(.+?)(?:\.git)?\/?$/.exec(remote);
  if (scp) return `https://${scp[1]}/${scp[2]}`;
  let url: URL;
  try {
    url = new URL(remote);
  } catch {
    return undefined;
  }
  if (!['https:', 'http:', 'ssh:', 'git:'].includes(url.protocol) || url.hostname === '') return undefined;
  const path = url.pathname.replace(/\.git\/?$/, '').replace(/\/$/, '');
  if (path === '') return undefined;
  // An ssh or git remote's port is not the web server's.
  const web =
    url.protocol === 'http:' || url.protocol === 'https:'
      ? `${url.protocol}//${url.host}`
      : `https://${url.hostname}`;
  return `${web}${path}`;
}

/** `base/path` with exactly one slash between them. */
function joinUrl(base: string | undefined, path: string): string | undefined {
  return base ? `${base.replace(/\/+$/, '')}/${path}` : undefined;
}

/** `refs/heads/main` → `main`; `refs/pull/7/merge` stays as it is. */
function branchOf(ref: string | undefined): string | undefined {
  return ref?.replace(/^refs\/heads\//, '');
}

/**
 * The providers most CI runs happen on, read from their own variables: no git, no module to load
 * (loading env-ci costs more CPU than the rest of the reporter:
 * bench/README.md#7-fixed-cost-per-run-fixed-costmjs-and-the-http-stack-alone-transport-childmjs).
 * The same names and values env-ci gives, except that a pull request's branch comes from the
 * provider's variable rather than its event file or git. Every other provider is env-ci's
 * (ci-tags.ts).
 */
const PROVIDERS: readonly Provider[] = [
  {
    service: 'github',
    detect: (env) => Boolean(env.GITHUB_ACTIONS),
    read: (env) => ({
      branch: env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || branchOf(env.GITHUB_REF),
      commit: env.GITHUB_SHA,
      build: env.GITHUB_RUN_ID,
      ...githubUrls(env),
    }),
  },
  {
    service: 'gitlab',
    detect: (env) => Boolean(env.GITLAB_CI),
    read: (env) => ({
      branch: env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME || env.CI_COMMIT_REF_NAME,
      commit: env.CI_COMMIT_SHA,
      build: env.CI_PIPELINE_ID,
      buildUrl: env.CI_PIPELINE_URL,
      repoUrl: repositoryWebUrl(env.CI_PROJECT_URL),
    }),
  },
  {
    service: 'circleci',
    detect: (env) => Boolean(env.CIRCLECI),
    read: (env) => ({
      branch: env.CIRCLE_BRANCH,
      commit: env.CIRCLE_SHA1,
      build: env.CIRCLE_BUILD_NUM,
      buildUrl: env.CIRCLE_BUILD_URL,
      repoUrl: repositoryWebUrl(env.CIRCLE_REPOSITORY_URL),
    }),
  },
  {
    service: 'buildkite',
    detect: (env) => Boolean(env.BUILDKITE),
    read: (env) => ({
      branch: env.BUILDKITE_BRANCH,
      commit: env.BUILDKITE_COMMIT,
      build: env.BUILDKITE_BUILD_NUMBER,
      buildUrl: env.BUILDKITE_BUILD_URL,
      repoUrl: repositoryWebUrl(env.BUILDKITE_REPO),
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
      buildUrl: env.BUILD_URL,
      repoUrl: repositoryWebUrl(env.GIT_URL),
    }),
  },
  {
    service: 'azure-pipelines',
    detect: (env) => Boolean(env.BUILD_BUILDURI),
    read: (env) => ({
      branch: branchOf(env.SYSTEM_PULLREQUEST_SOURCEBRANCH || env.BUILD_SOURCEBRANCH),
      commit: env.BUILD_SOURCEVERSION,
      build: env.BUILD_BUILDNUMBER,
      buildUrl:
        env.SYSTEM_TEAMPROJECT && env.BUILD_BUILDID
          ? joinUrl(
              env.SYSTEM_COLLECTIONURI,
              `${encodeURIComponent(env.SYSTEM_TEAMPROJECT)}/_build/results?buildId=${encodeURIComponent(env.BUILD_BUILDID)}`,
            )
          : undefined,
      repoUrl: repositoryWebUrl(env.BUILD_REPOSITORY_URI),
    }),
  },
  {
    service: 'bitbucket',
    detect: (env) => Boolean(env.BITBUCKET_BUILD_NUMBER),
    read: (env) => ({
      branch: env.BITBUCKET_BRANCH,
      commit: env.BITBUCKET_COMMIT,
      build: env.BITBUCKET_BUILD_NUMBER,
      buildUrl: env.BITBUCKET_REPO_FULL_NAME
        ? `https://bitbucket.org/${env.BITBUCKET_REPO_FULL_NAME}/pipelines/results/${env.BITBUCKET_BUILD_NUMBER}`
        : undefined,
      repoUrl: repositoryWebUrl(env.BITBUCKET_GIT_HTTP_ORIGIN),
    }),
  },
  {
    service: 'travis',
    detect: (env) => Boolean(env.TRAVIS),
    read: (env) => ({
      branch: env.TRAVIS_PULL_REQUEST_BRANCH || env.TRAVIS_BRANCH,
      commit: env.TRAVIS_COMMIT,
      build: env.TRAVIS_BUILD_NUMBER,
      buildUrl: env.TRAVIS_BUILD_WEB_URL,
      repoUrl: env.TRAVIS_REPO_SLUG ? `https://github.com/${env.TRAVIS_REPO_SLUG}` : undefined,
    }),
  },
];

/** GitHub Actions names the server and the repository; the run's page is under the repository. */
function githubUrls(env: Env): Pick<CiInfo, 'buildUrl' | 'repoUrl'> {
  const repoUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY
      ? repositoryWebUrl(joinUrl(env.GITHUB_SERVER_URL, env.GITHUB_REPOSITORY))
      : undefined;
  return {
    repoUrl,
    buildUrl: env.GITHUB_RUN_ID ? joinUrl(repoUrl, `actions/runs/${env.GITHUB_RUN_ID}`) : undefined,
  };
}

/** The run's CI provider when it is one of PROVIDERS; undefined otherwise (another CI, or none). */
export function knownProvider(env: Env): CiInfo | undefined {
  const provider = PROVIDERS.find(({ detect }) => detect(env));
  if (!provider) return undefined;
  const { branch, commit, build, buildUrl, repoUrl } = provider.read(env);
  return {
    service: provider.service,
    branch: branch || undefined,
    commit: commit || undefined,
    build: build || undefined,
    buildUrl: webUrl(buildUrl),
    repoUrl: webUrl(repoUrl),
  };
}

/** An http(s) URL without credentials, as a tag may carry it; anything else is dropped. */
function webUrl(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return undefined;
  }
}
