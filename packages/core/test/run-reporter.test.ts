import path from 'node:path';
import type { FileReport, ProjectLabel, ResultInfo, TestrunOptions } from '@testrun/core';
import { RunReporter } from '@testrun/core';
import { identities, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// RunReporter.addFile / addRunErrors against a real server: what a file and an error
// outside any file become, whichever adapter hands them over.

const repo = path.resolve('/repo');
const at = (...parts: string[]) => path.join(repo, ...parts);

async function report(
  reports: readonly FileReport[],
  init: { projectCount?: number; projectLabel?: ProjectLabel; runErrors?: string[] } = {},
) {
  const { server, url, apiKey } = await startTestServer();
  const infos: ResultInfo[] = [];
  const options: TestrunOptions = {
    apiKey,
    baseUrl: url,
    project: 'core-tests',
    ciTags: false,
    projectLabel: init.projectLabel,
    mapResult: (result, info) => {
      infos.push(info);
      return result;
    },
  };
  const reporter = new RunReporter({
    options,
    framework: { name: 'jest', version: '30.0.0' },
    rootDir: repo,
    projectCount: init.projectCount,
    env: {},
    write: () => {},
  });
  reporter.startRun();
  for (const file of reports) reporter.addFile(file);
  reporter.addRunErrors(init.runErrors ?? []);
  await reporter.endRun();
  const [run] = server.store.runs();
  return { stored: identities(server.store.results(run!.id)), infos };
}

const nodeAndEdge = (titles: string[]): FileReport[] =>
  ['node', 'edge'].map((name) => ({
    file: at('src', 'a.test.ts'),
    project: { name, root: repo },
    tests: [{ titles, status: 'passed' }],
  }));

describe('project labels', () => {
  it('label each result with its project when the configuration defines several (auto)', async () => {
    const { stored } = await report(nodeAndEdge(['adds']), { projectCount: 2 });
    expect(stored.map((result) => result.testSuite)).toEqual([
      '[edge] src/a.test.ts',
      '[node] src/a.test.ts',
    ]);
  });

  it('leave a single-project run unlabelled, even when its project has a name (auto)', async () => {
    const { stored } = await report(nodeAndEdge(['adds']).slice(0, 1), { projectCount: 1 });
    expect(stored.map((result) => result.testSuite)).toEqual(['src/a.test.ts']);
  });

  it('label a single named project with always, and no project with never', async () => {
    const always = await report(nodeAndEdge(['adds']).slice(0, 1), {
      projectCount: 1,
      projectLabel: 'always',
    });
    const never = await report(nodeAndEdge(['adds']), { projectCount: 2, projectLabel: 'never' });
    expect(always.stored.map((result) => result.testSuite)).toEqual(['[node] src/a.test.ts']);
    expect(never.stored.map((result) => result.testSuite)).toEqual(['src/a.test.ts', 'src/a.test.ts']);
  });

  it('give mapResult the file, the project and the framework, labelled or not', async () => {
    const { infos } = await report(nodeAndEdge(['adds']), { projectCount: 2, projectLabel: 'never' });
    expect(infos).toEqual([
      { file: at('src', 'a.test.ts'), project: 'node', framework: 'jest' },
      { file: at('src', 'a.test.ts'), project: 'edge', framework: 'jest' },
    ]);
  });
});

describe('a file run a second way in the same project', () => {
  it('has its variant after the path and the project before it', async () => {
    const file = at('src', 'a.test.ts');
    const { stored } = await report(
      [undefined, 'typecheck'].map((variant) => ({
        file,
        project: { name: 'node' },
        variant,
        tests: [{ titles: ['adds'], status: 'passed' as const }],
      })),
      { projectCount: 2 },
    );
    expect(stored.map((result) => result.testSuite)).toEqual([
      '[node] src/a.test.ts',
      '[node] src/a.test.ts (typecheck)',
    ]);
  });
});

describe('a file reported again because it failed outside its tests', () => {
  const file = at('src', 'b.test.ts');

  it('gets one (file failed to run) after its passing tests, however often it is named', async () => {
    const { stored } = await report([
      { file, tests: [{ titles: ['passes'], status: 'passed' }] },
      { file, tests: [], failedOutsideTests: true },
      { file, tests: [], failedOutsideTests: true },
    ]);
    expect(stored).toEqual([
      { testSuite: 'src/b.test.ts', testCase: '(file failed to run)', status: 'failed' },
      { testSuite: 'src/b.test.ts', testCase: 'passes', status: 'passed' },
    ]);
  });

  it('gets none when one of its tests already failed', async () => {
    const { stored } = await report([
      { file, tests: [{ titles: ['fails'], status: 'failed' }] },
      { file, tests: [], failedOutsideTests: true },
    ]);
    expect(stored).toEqual([{ testSuite: 'src/b.test.ts', testCase: 'fails', status: 'failed' }]);
  });

  it('gets one per project that failed, not one for the file', async () => {
    const { stored } = await report(
      ['node', 'edge'].map((name) => ({ file, project: { name }, tests: [], failedOutsideTests: true })),
      { projectCount: 2 },
    );
    expect(stored.map((result) => `${result.testSuite} ${result.testCase}`)).toEqual([
      '[edge] src/b.test.ts (file failed to run)',
      '[node] src/b.test.ts (file failed to run)',
    ]);
  });
});

describe('errors outside any file', () => {
  it('become failed (run) results, one per distinct first line', async () => {
    const { stored } = await report([], {
      runErrors: [
        'Error: worker exited\n    at x.js:1',
        'Error: worker exited\n    at y.js:2',
        'TypeError: no',
      ],
    });
    expect(stored).toEqual([
      { testSuite: '(run)', testCase: '(unhandled error) Error: worker exited', status: 'failed' },
      { testSuite: '(run)', testCase: '(unhandled error) TypeError: no', status: 'failed' },
    ]);
  });

  it('are at most five results, and one more counting the rest', async () => {
    const { stored } = await report([], { runErrors: Array.from({ length: 9 }, (_, i) => `Error ${i}`) });
    // `stored` comes sorted by name.
    expect(stored.map((result) => result.testCase).sort()).toEqual(
      [
        ...[0, 1, 2, 3, 4].map((i) => `(unhandled error) Error ${i}`),
        '(unhandled error) 4 more errors',
      ].sort(),
    );
  });

  it('count across calls: an adapter may hand them over one at a time', async () => {
    const { server, url, apiKey } = await startTestServer();
    const reporter = new RunReporter({
      options: { apiKey, baseUrl: url, project: 'core-tests', ciTags: false },
      framework: { name: 'playwright', version: '1.65.0' },
      rootDir: repo,
      env: {},
      write: () => {},
    });
    reporter.startRun();
    for (const i of [0, 1, 1, 2, 3, 4, 5, 6])
      reporter.addRunErrors([`\u001b[31mError ${i}\u001b[39m\n    at x.js:1:1`]);
    const summary = await reporter.endRun();
    expect(server.store.results(summary!.runId!).map((result) => result.testCase)).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => `(unhandled error) Error ${i}`),
      '(unhandled error) 2 more errors',
    ]);
  });
});
