import { fileURLToPath } from 'node:url';
import { runNodeScript, startTestServer } from '@testrun/test-utils';
import { expect, it } from 'vitest';

// A test in the reporter's process (Mocha's serial mode) installs fake timers, all of them,
// and never restores them. Node's HTTP stack then cannot complete a request: its
// process.nextTick is a fake whose queue only the test's clock drains. The run must still
// deliver everything at its end, with the real task queues, and leave the fakes in place.
const script = `
import { createRequire } from 'node:module';
import { RunReporter } from '@testrun/core';
const FakeTimers = createRequire(process.env.TEST_UTILS)('@sinonjs/fake-timers');
const reporter = new RunReporter({
  options: { apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, flushInterval: 10, flushTimeout: 20000 },
  framework: { name: 'mocha', version: '11.0.0' },
  rootDir: process.cwd(),
  write: () => {},
});
reporter.startRun();
reporter.addResults([{ testSuite: 'a.test.js', testCase: 'before the fakes', status: 'passed', duration: 1 }]);
await new Promise((resolve) => setTimeout(resolve, 200));
const clock = FakeTimers.install({
  toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval',
    'Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask'],
});
const fakeNextTick = process.nextTick;
reporter.addResults([{ testSuite: 'a.test.js', testCase: 'with the fakes', status: 'failed', duration: 1 }]);
const summary = await reporter.endRun();
console.log(JSON.stringify({
  delivered: summary.delivered,
  spooled: summary.spooled,
  fakesKept: process.nextTick === fakeNextTick && Date === clock.Date,
}));
`;

it('delivers every result through fake timers a test never restored, and leaves them in place', async () => {
  const { server, url, apiKey } = await startTestServer();
  const testUtils = fileURLToPath(new URL('../../../test-utils/package.json', import.meta.url));
  const { result } = await runNodeScript<{ delivered: number; spooled: number; fakesKept: boolean }>(script, {
    env: { KEY: apiKey, URL: url, TEST_UTILS: testUtils },
  });
  expect(result).toEqual({ delivered: 2, spooled: 0, fakesKept: true });
  expect(server.store.results(server.store.runs()[0]!.id).map((stored) => stored.testCase)).toEqual([
    'before the fakes',
    'with the fakes',
  ]);
});
