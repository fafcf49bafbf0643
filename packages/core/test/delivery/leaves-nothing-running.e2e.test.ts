import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestServer, type TestServer, tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// A timer or socket left behind keeps Vitest or Jest from exiting after the run: the
// user sees a slower CI job, or a hang. A fresh Node process shows exactly what is left.
const script = `
import { RunReporter } from '@testrun/core';
const reporter = new RunReporter({
  options: { apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, flushTimeout: 1000, spoolDir: process.env.SPOOL },
  framework: { name: 'vitest', version: '4.0.0' },
  rootDir: process.cwd(),
  env: {},
  write: () => {},
});
reporter.startRun();
reporter.addResults([{ testSuite: 'a.test.ts', testCase: 'x', status: 'passed', duration: 1 }]);
const summary = await reporter.endRun();
const left = process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap' && kind !== 'PipeWrap');
console.log(JSON.stringify({ delivered: summary.delivered, left }));
`;

let server: TestServer | undefined;

describe('after endRun', () => {
  it.each([
    ['delivered everything', undefined],
    ['spooled at the deadline', () => ({ delayMs: 10_000 })],
  ])('leaves no timer or socket behind when it %s', async (_case, faults) => {
    server = await startTestServer({ faults });
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', script.replace('process.env.SPOOL', JSON.stringify(tempDir('testrun-')))],
      { env: { ...process.env, KEY: server.apiKey, URL: server.url } },
    );
    const { left } = JSON.parse(stdout) as { left: string[] };
    expect(left).toEqual([]);
  });
});
