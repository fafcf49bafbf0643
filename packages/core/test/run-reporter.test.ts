import path from 'node:path';
import { RunReporter, type TestrunOptions } from '@testrun/core';
import { identities, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// RunReporter hands what a run's reports became (results/, whose naming rules test/results/
// proves without a server) to delivery: here, that a run's stage lasts from its start to its
// end across calls, that the configured mapResult applies, and that the run's end adds the
// count of run errors beyond five before the last batch goes out.

const repo = path.resolve('/repo');

describe('a run reported file by file', () => {
  it('stores what its files and errors became through mapResult, the count of errors beyond five added at its end', async () => {
    const { server, url, apiKey } = await startTestServer();
    const options: TestrunOptions = {
      apiKey,
      baseUrl: url,
      project: 'core-tests',
      ciTags: false,
      mapResult: (result) =>
        result.testCase === 'passes' ? { ...result, testCase: 'passes (mapped)' } : result,
    };
    const reporter = new RunReporter({
      options,
      framework: { name: 'playwright', version: '1.65.0' },
      rootDir: repo,
      env: {},
      write: () => {},
    });
    const file = path.join(repo, 'src', 'b.test.ts');
    reporter.startRun();
    reporter.addFile({ file, tests: [{ titles: ['passes'], status: 'passed' }] });
    for (const i of [0, 1, 1, 2, 3, 4, 5, 6]) {
      reporter.addRunErrors([`\u001b[31mError ${i}\u001b[39m\n    at x.js:1:1`]);
      reporter.addFile({ file, tests: [], failedOutsideTests: true });
    }
    const summary = await reporter.endRun();
    // `identities` sorts both sides by name.
    expect(identities(await server.store.results(summary!.runId!))).toEqual(
      identities([
        ...[0, 1, 2, 3, 4].map((i) => ({
          testSuite: '(run)',
          testCase: `(unhandled error) Error ${i}`,
          status: 'failed',
        })),
        { testSuite: '(run)', testCase: '(unhandled error) 2 more errors', status: 'failed' },
        { testSuite: 'src/b.test.ts', testCase: '(file failed to run)', status: 'failed' },
        { testSuite: 'src/b.test.ts', testCase: 'passes (mapped)', status: 'passed' },
      ]),
    );
    expect(summary).toMatchObject({ delivered: 8, spooled: 0, failed: 0 });
  });
});
