import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { defaultPlanKey, planKeyProblem } from '../../src/options/plan-key.js';
import { buildBranches } from '../../src/plan/build-branches.js';

// The key the shards of one build share their plan by, from what CI says (docs/sharding.md).

describe('defaultPlanKey', () => {
  it.each([
    [
      'GitHub Actions: the run, the repository and the job, which a matrix and a re-run of failed jobs keep',
      {
        GITHUB_ACTIONS: 'true',
        GITHUB_RUN_ID: '9001',
        GITHUB_RUN_ATTEMPT: '2',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_JOB: 'test',
      },
      'github:9001:o/r:test',
    ],
    [
      'GitLab: the pipeline and the stage, which `parallel` jobs share whatever their names',
      { GITLAB_CI: 'true', CI_PIPELINE_ID: '77', CI_JOB_STAGE: 'test', CI_JOB_NAME: 'unit 2/4' },
      'gitlab:77:test',
    ],
    [
      'CircleCI: the workflow and the job its parallel containers share',
      { CIRCLECI: 'true', CIRCLE_WORKFLOW_ID: 'wf-1', CIRCLE_JOB: 'test', CIRCLE_NODE_INDEX: '1' },
      'circleci:wf-1:test',
    ],
    [
      'Buildkite: the build',
      { BUILDKITE: 'true', BUILDKITE_BUILD_ID: 'b-1', BUILDKITE_PARALLEL_JOB: '3' },
      'buildkite:b-1',
    ],
    [
      'Jenkins: the build tag',
      { JENKINS_URL: 'https://ci', BUILD_TAG: 'jenkins-shop-12' },
      'jenkins:jenkins-shop-12',
    ],
    [
      'Azure Pipelines: the build id',
      { BUILD_BUILDURI: 'vstfs:///1', BUILD_BUILDID: '512' },
      'azure-pipelines:512',
    ],
    [
      'Bitbucket: the pipeline',
      { BITBUCKET_BUILD_NUMBER: '4', BITBUCKET_PIPELINE_UUID: '{u}' },
      'bitbucket:{u}',
    ],
    ['Travis: the build', { TRAVIS: 'true', TRAVIS_BUILD_ID: '31' }, 'travis:31'],
  ])('%s', (_name, env, key) => {
    expect(defaultPlanKey(env, 'run-1')).toBe(key);
  });

  it('is a key a header can carry, whatever CI names its stage, and stays apart when cut', () => {
    const stage = (name: string) =>
      defaultPlanKey({ GITLAB_CI: 'true', CI_PIPELINE_ID: '7', CI_JOB_STAGE: name });
    expect(stage('tésts et intégration')).toBe('gitlab:7:t%C3%A9sts%20et%20int%C3%A9gration');
    const long = [stage('x'.repeat(300)), stage(`${'x'.repeat(299)}y`)];
    for (const key of long) expect(planKeyProblem(key!)).toBeUndefined();
    expect(long[0]).not.toBe(long[1]);
  });

  it('is the shared run (TESTRUN_RUN_ID) where no build is known, and none outside CI without one', () => {
    expect(defaultPlanKey({ CI: 'true' }, 'run-1')).toBe('run:run-1');
    expect(defaultPlanKey({ GITHUB_ACTIONS: 'true' }, 'run-1')).toBe('run:run-1');
    expect(defaultPlanKey({}, undefined)).toBeUndefined();
    expect(defaultPlanKey({ CI: 'true' })).toBeUndefined();
  });
});

describe('planKeyProblem', () => {
  it.each(['build-1', 'github:9001:o/r:test', 'a key with spaces', 'x'.repeat(200)])('takes %j', (key) => {
    expect(planKeyProblem(key)).toBeUndefined();
  });

  it.each(['', ' padded', 'padded ', 'naïve', 'line\nbreak', 'x'.repeat(201)])(
    'refuses %j, saying what a key is',
    (key) => {
      expect(planKeyProblem(key)).toMatch(
        /^must be 1 to 200 visible ASCII characters \(spaces inside only\), got /,
      );
    },
  );
});

describe('buildBranches', () => {
  it('reads the branch as runs are tagged, and the default branch where CI names it', () => {
    expect(
      buildBranches({ GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'feat', CI_DEFAULT_BRANCH: 'main' }),
    ).toEqual({
      branch: 'feat',
      defaultBranch: 'main',
    });
    expect(
      buildBranches({ BUILDKITE: 'true', BUILDKITE_BRANCH: 'b', BUILDKITE_PIPELINE_DEFAULT_BRANCH: 'trunk' }),
    ).toEqual({
      branch: 'b',
      defaultBranch: 'trunk',
    });
    expect(buildBranches({ CIRCLECI: 'true', CIRCLE_BRANCH: 'x' })).toEqual({
      branch: 'x',
      defaultBranch: undefined,
    });
    expect(buildBranches({})).toEqual({ branch: undefined, defaultBranch: undefined });
  });

  it("reads GitHub's default branch from its event file, and does without one it cannot read", () => {
    const event = path.join(tempDir('testrun-event-'), 'event.json');
    fs.writeFileSync(event, JSON.stringify({ repository: { default_branch: 'develop' } }));
    const github = { GITHUB_ACTIONS: 'true', GITHUB_HEAD_REF: 'feat' };
    expect(buildBranches({ ...github, GITHUB_EVENT_PATH: event })).toEqual({
      branch: 'feat',
      defaultBranch: 'develop',
    });
    expect(buildBranches({ ...github, GITHUB_EVENT_PATH: `${event}.missing` })).toEqual({
      branch: 'feat',
      defaultBranch: undefined,
    });
  });
});
