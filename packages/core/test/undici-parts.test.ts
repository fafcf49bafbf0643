import { runNodeScript, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// undici's whole package costs the framework's main process ~80 ms more CPU than the parts
// the reporter uses; a release that moved those parts would fall back to it unnoticed.
describe('the HTTP client', () => {
  it("loads undici's dispatcher and request on their own, not the whole package", async () => {
    const { url, apiKey, server } = await startTestServer();
    const { result, resolved } = await runNodeScript<{ delivered: number }>(
      `
import { RunReporter } from '@testrun/core';
const reporter = new RunReporter({
  options: { apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, spoolDir: '/tmp/testrun-unused-spool' },
  framework: { name: 'vitest', version: '4.0.0' },
  rootDir: process.cwd(),
  env: {},
  write: () => {},
});
reporter.startRun();
reporter.addResults([{ testSuite: 'a.test.ts', testCase: 'x', status: 'passed', duration: 1 }]);
const summary = await reporter.endRun();
console.log(JSON.stringify({ delivered: summary.delivered }));`,
      { env: { KEY: apiKey, URL: url } },
    );
    expect(result).toEqual({ delivered: 1 });
    expect(server.store.allResults()).toHaveLength(1);
    expect(resolved).toContain('@testrun/core');
    expect(resolved).not.toContain('undici');
  });
});
