import { REPORTER_OPTIONS_VAR } from './fixtures.js';
import { tempDir } from './temp-dir.js';

/** What a reporter needs to talk to `server`, spooling into a fresh temp dir. */
export function reporterEnv(
  server: { url: string; apiKey: string },
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    TESTRUN_API_KEY: server.apiKey,
    TESTRUN_BASE_URL: server.url,
    TESTRUN_SPOOL_DIR: tempDir('testrun-spool-'),
    ...extra,
  };
}

/**
 * The parent's environment without anything that would change how the child reports:
 * our own TESTRUN_* settings, CI detection (it adds tags), and the variables of the Vitest
 * that runs these tests. Colours are off so output can be matched. NODE_PATH, which pnpm's
 * bin shims point at its hidden hoisted packages, goes too: jest-cli's import-local looks
 * there, and with an old Jest hoisted (a Jest 24 install did it) runs that instead.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!INHERITED_NOISE.test(name)) env[name] = value;
  }
  Object.assign(env, { NO_COLOR: '1', FORCE_COLOR: '0' });
  for (const [name, value] of Object.entries(extra)) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

const INHERITED_NOISE = new RegExp(
  `^(?:${[
    'TESTRUN_.*',
    REPORTER_OPTIONS_VAR,
    'VITEST.*',
    'JEST_WORKER_ID',
    // Playwright's debug, watch and reporter switches.
    'PWDEBUG',
    'PWTEST_.*',
    'PW_TEST_.*',
    'NODE_ENV',
    'NODE_PATH',
    'CI',
    'CI_.*',
    'CONTINUOUS_INTEGRATION',
    'BUILD_.*',
    'GITHUB_.*',
    'GITLAB_.*',
    'CIRCLE.*',
    'TRAVIS.*',
    'BUILDKITE.*',
    'JENKINS_.*',
    'HUDSON_.*',
    'TEAMCITY_.*',
    'BITBUCKET_.*',
    'BITRISE.*',
    'DRONE.*',
    'APPVEYOR.*',
    'CODEBUILD_.*',
    'TF_BUILD',
    'SYSTEM_.*',
    'SEMAPHORE.*',
    'CIRRUS.*',
    'NETLIFY',
    'VERCEL.*',
    'WOODPECKER.*',
    'BAMBOO_.*',
  ].join('|')})$`,
);
