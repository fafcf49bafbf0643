import fs from 'node:fs';
import { knownProvider } from '../options/ci-providers.js';

type Env = NodeJS.ProcessEnv;

/** The branch being built and the repository's default branch, where CI says them. */
export interface BuildBranches {
  branch: string | undefined;
  defaultBranch: string | undefined;
}

/**
 * The branch as core tags runs with it (`branch:<name>`, ci-providers.ts), and the default
 * branch where the provider names it: GitLab and Buildkite in a variable, GitHub Actions in
 * its event file.
 */
export function buildBranches(env: Env): BuildBranches {
  const ci = knownProvider(env);
  if (!ci) return { branch: undefined, defaultBranch: undefined };
  const defaultBranch =
    env.CI_DEFAULT_BRANCH ||
    env.BUILDKITE_PIPELINE_DEFAULT_BRANCH ||
    (ci.service === 'github' ? githubDefaultBranch(env.GITHUB_EVENT_PATH) : undefined);
  return { branch: ci.branch, defaultBranch: defaultBranch || undefined };
}

function githubDefaultBranch(eventPath: string | undefined): string | undefined {
  if (!eventPath) return undefined;
  try {
    const event = JSON.parse(fs.readFileSync(eventPath, 'utf8')) as {
      repository?: { default_branch?: unknown };
    };
    const branch = event.repository?.default_branch;
    return typeof branch === 'string' ? branch : undefined;
  } catch {
    return undefined;
  }
}
