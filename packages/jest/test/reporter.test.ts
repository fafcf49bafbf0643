import fs from 'node:fs';
import path from 'node:path';
import type { Config, Test } from '@jest/reporters';
import { startTestServer, tempDir } from '@testrun/test-utils';
import { expect, it, onTestFinished } from 'vitest';
import { TestrunReporter } from '../src/reporter.js';
import { fileNamed, RECORDED_PROJECT, recording } from './recorded-results.js';

// The reporter's hooks, called as Jest calls them, with the objects Jest recorded
// (fixtures/recorded), against a real server.
const { files, caseResultTests, unfinished } = recording();

it('names the project of a file still running when the process goes by the Test Jest started it with', async () => {
  const { server, url, apiKey } = await startTestServer();
  const spoolDir = tempDir('testrun-jest-reporter-');
  onTestFinished(() => fs.rmSync(spoolDir, { recursive: true, force: true }));
  const started = fileNamed(files, 'unfinished.test.js').test;
  // What Jest hands onTestCaseResult for that file: a Test with another project's config.
  const withCaseResult = caseResultTests.find((test) => test.path === started.path) as Test;
  expect(withCaseResult.context.config.id).not.toBe(started.context.config.id);

  const projects = ['unit', 'edge', 'integration'].map((name) => path.join(RECORDED_PROJECT, name));
  const reporter = new TestrunReporter(
    { rootDir: RECORDED_PROJECT, projects } as unknown as Config.GlobalConfig,
    {
      apiKey,
      baseUrl: url,
      spoolDir,
      ciTags: false,
    },
  );
  reporter.onRunStart();
  reporter.onTestFileStart(started);
  reporter.onTestCaseResult(withCaseResult, unfinished.assertions[0]!);
  // As the exit guard does when the process is on its way out.
  (reporter as unknown as { reportUnfinishedFiles(): void }).reportUnfinishedFiles();
  await reporter.onRunComplete();

  expect(
    (await server.store.allResults()).map(({ testSuite, testCase }) => ({ testSuite, testCase })),
  ).toEqual([{ testSuite: '[unit] unfinished.test.js', testCase: 'ends first' }]);
});
