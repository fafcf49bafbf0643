import { runNodeScript } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { repositoryWebUrl } from '../../src/options/ci-providers.js';
import { ciTags, inCi } from '../../src/options/ci-tags.js';

const cwd = process.cwd();

describe('ciTags', () => {
  it.each([
    [
      'GitHub Actions',
      { GITHUB_ACTIONS: 'true', GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'abc123', GITHUB_RUN_ID: '77' },
      ['ci:github', 'branch:main', 'commit:abc123', 'build:77'],
    ],
    [
      'GitLab CI',
      { GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'feature/x', CI_COMMIT_SHA: 'def456', CI_PIPELINE_ID: '88' },
      ['ci:gitlab', 'branch:feature/x', 'commit:def456', 'build:88'],
    ],
    [
      'CircleCI',
      { CIRCLECI: 'true', CIRCLE_BRANCH: 'dev', CIRCLE_SHA1: 'c1', CIRCLE_BUILD_NUM: '9' },
      ['ci:circleci', 'branch:dev', 'commit:c1', 'build:9'],
    ],
    [
      'Buildkite',
      { BUILDKITE: 'true', BUILDKITE_BRANCH: 'main', BUILDKITE_COMMIT: 'b1', BUILDKITE_BUILD_NUMBER: '5' },
      ['ci:buildkite', 'branch:main', 'commit:b1', 'build:5'],
    ],
    [
      'Jenkins',
      { JENKINS_URL: 'http://jenkins', BUILD_NUMBER: '12', GIT_BRANCH: 'release', GIT_COMMIT: 'j1' },
      ['ci:jenkins', 'branch:release', 'commit:j1', 'build:12'],
    ],
    [
      'Azure Pipelines',
      {
        BUILD_BUILDURI: 'vstfs:///Build/Build/1',
        BUILD_SOURCEBRANCH: 'refs/heads/main',
        BUILD_SOURCEVERSION: 'a1',
        BUILD_BUILDNUMBER: '20261122.1',
      },
      ['ci:azure-pipelines', 'branch:main', 'commit:a1', 'build:20261122.1'],
    ],
    [
      'Bitbucket Pipelines',
      { BITBUCKET_BUILD_NUMBER: '31', BITBUCKET_BRANCH: 'main', BITBUCKET_COMMIT: 'bb1' },
      ['ci:bitbucket', 'branch:main', 'commit:bb1', 'build:31'],
    ],
    [
      'Travis',
      { TRAVIS: 'true', TRAVIS_BRANCH: 'main', TRAVIS_COMMIT: 't1', TRAVIS_BUILD_NUMBER: '44' },
      ['ci:travis', 'branch:main', 'commit:t1', 'build:44'],
    ],
  ])('tags a run on %s with provider, branch, commit and build', async (_name, env, expected) => {
    expect(await ciTags(env, cwd)).toEqual(expected);
  });

  it.each([
    [
      'a GitHub pull request',
      {
        GITHUB_ACTIONS: 'true',
        GITHUB_REF: 'refs/pull/7/merge',
        GITHUB_HEAD_REF: 'fix/x',
        GITHUB_SHA: 'p1',
        GITHUB_RUN_ID: '8',
      },
      ['ci:github', 'branch:fix/x', 'commit:p1', 'build:8'],
    ],
    [
      'a GitLab merge request',
      {
        GITLAB_CI: 'true',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
        CI_COMMIT_REF_NAME: 'main',
        CI_COMMIT_SHA: 'g1',
        CI_PIPELINE_ID: '9',
      },
      ['ci:gitlab', 'branch:feature', 'commit:g1', 'build:9'],
    ],
    [
      'an Azure pull request',
      {
        BUILD_BUILDURI: 'vstfs:///x',
        SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/topic',
        BUILD_SOURCEBRANCH: 'refs/pull/3/merge',
        BUILD_SOURCEVERSION: 'a2',
        BUILD_BUILDNUMBER: '5',
      },
      ['ci:azure-pipelines', 'branch:topic', 'commit:a2', 'build:5'],
    ],
  ])('tags %s with the branch of the change, from the provider variables', async (_name, env, expected) => {
    expect(await ciTags(env, cwd)).toEqual(expected);
  });

  it('adds the shard when the run is one of several shards', async () => {
    expect(await ciTags({}, cwd, { index: 2, count: 3 })).toEqual(['shard:2/3']);
    expect(await ciTags({}, cwd, { index: 1, count: 1 })).toEqual([]);
  });

  it('adds nothing on a machine that is no known CI, even with CI=true', async () => {
    expect(await ciTags({ CI: 'true' }, cwd)).toEqual([]);
    expect(await ciTags({}, cwd)).toEqual([]);
  });
});

describe('CI detection outside CI', () => {
  it('recognises CI by any provider variable or CI, and nothing else', () => {
    expect(inCi({})).toBe(false);
    expect(inCi({ HOME: '/home/dev', PATH: '/usr/bin' })).toBe(false);
    expect(inCi({ CI: 'true' })).toBe(true);
    expect(inCi({ GITHUB_ACTIONS: 'true' })).toBe(true);
    expect(inCi({ JENKINS_URL: 'http://jenkins' })).toBe(true);
  });

  it('never loads env-ci, the one thing that spawns git, outside CI nor on a provider it reads itself', async () => {
    const script = (env: object) => `
import { ciTags } from '@testrun/core';
console.log(JSON.stringify(await ciTags(${JSON.stringify(env)}, process.cwd())));`;
    const outside = await runNodeScript<string[]>(script({}));
    expect(outside.result).toEqual([]);
    expect(outside.resolved).toContain('@testrun/core');
    expect(outside.resolved).not.toContain('env-ci');

    const github = await runNodeScript<string[]>(script({ GITHUB_ACTIONS: 'true', GITHUB_SHA: 'abc' }));
    expect(github.result).toEqual(['ci:github', 'commit:abc']);
    expect(github.resolved).not.toContain('env-ci');

    // Drone is env-ci's.
    const drone = await runNodeScript<string[]>(
      script({ DRONE: 'true', DRONE_BRANCH: 'main', DRONE_COMMIT_SHA: 'd1', DRONE_BUILD_NUMBER: '3' }),
    );
    expect(drone.result).toEqual(['ci:drone', 'branch:main', 'commit:d1', 'build:3']);
    expect(drone.resolved).toContain('env-ci');
  });
});

describe('where CI says the build and repository are', () => {
  it.each([
    [
      'GitHub Actions',
      {
        GITHUB_ACTIONS: 'true',
        GITHUB_REF_NAME: 'main',
        GITHUB_SHA: 'abc123',
        GITHUB_RUN_ID: '77',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'acme/shop',
      },
      [
        'ci:github',
        'branch:main',
        'commit:abc123',
        'build:77',
        'build-url:https://github.com/acme/shop/actions/runs/77',
        'repo-url:https://github.com/acme/shop',
      ],
    ],
    [
      'GitLab CI',
      {
        GITLAB_CI: 'true',
        CI_COMMIT_REF_NAME: 'main',
        CI_COMMIT_SHA: 'def456',
        CI_PIPELINE_ID: '88',
        CI_PIPELINE_URL: 'https://gitlab.example.com/acme/shop/-/pipelines/88',
        CI_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
      },
      [
        'ci:gitlab',
        'branch:main',
        'commit:def456',
        'build:88',
        'build-url:https://gitlab.example.com/acme/shop/-/pipelines/88',
        'repo-url:https://gitlab.example.com/acme/shop',
      ],
    ],
    [
      'Jenkins, whose remote carries a token',
      {
        JENKINS_URL: 'http://jenkins',
        BUILD_NUMBER: '12',
        BUILD_URL: 'http://jenkins:8080/job/shop/12/',
        GIT_URL: 'https://bot:s3cret@github.com/acme/shop.git',
      },
      [
        'ci:jenkins',
        'build:12',
        'build-url:http://jenkins:8080/job/shop/12/',
        'repo-url:https://github.com/acme/shop',
      ],
    ],
    [
      'CircleCI, with an ssh remote',
      {
        CIRCLECI: 'true',
        CIRCLE_BUILD_NUM: '9',
        CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/shop/9',
        CIRCLE_REPOSITORY_URL: 'git@github.com:acme/shop.git',
      },
      [
        'ci:circleci',
        'build:9',
        'build-url:https://circleci.com/gh/acme/shop/9',
        'repo-url:https://github.com/acme/shop',
      ],
    ],
  ])('adds build-url and repo-url tags on %s', async (_name, env, expected) => {
    expect(await ciTags(env, cwd)).toEqual(expected);
  });

  it('adds no URL that is not http(s), and none with credentials', async () => {
    const tags = await ciTags(
      {
        BUILDKITE: 'true',
        BUILDKITE_BUILD_URL: 'javascript:alert(1)',
        BUILDKITE_REPO: 'file:///srv/repo.git',
      },
      cwd,
    );
    expect(tags).toEqual(['ci:buildkite']);
    expect(
      await ciTags({ JENKINS_URL: 'x', BUILD_URL: 'https://user:pw@jenkins.example.com/job/1/' }, cwd),
    ).toEqual(['ci:jenkins', 'build-url:https://jenkins.example.com/job/1/']);
  });
});

describe('repositoryWebUrl', () => {
  it.each([
    ['git@github.com:acme/shop.git', 'https://github.com/acme/shop'],
    ['ssh://git@gitlab.example.com:2222/acme/shop.git', 'https://gitlab.example.com/acme/shop'],
    ['https://token@bitbucket.org/acme/shop.git', 'https://bitbucket.org/acme/shop'],
    ['http://git.local:3000/acme/shop/', 'http://git.local:3000/acme/shop'],
    ['file:///srv/shop.git', undefined],
    ['not a url', undefined],
    [undefined, undefined],
  ])('%s → %s', (remote, web) => {
    expect(repositoryWebUrl(remote)).toBe(web);
  });
});
