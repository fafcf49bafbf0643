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
  expect(
    (await server.store.results((await server.store.runs())[0]!.id)).map((stored) => stored.testCase),
  ).toEqual(['before the fakes', 'with the fakes']);
});

// The fakes arrive while a batch is on the wire: the rest of its answer waits in the fake
// process.nextTick's queue, which nothing will ever run. When the run's end puts the real
// queues back, that attempt is abandoned and the batch sent again at once, not after
// requestTimeout and a backoff; its idempotency key keeps it stored once.
const strandedScript = `
import { createRequire } from 'node:module';
import { RunReporter } from '@testrun/core';
const FakeTimers = createRequire(process.env.TEST_UTILS)('@sinonjs/fake-timers');
const lines = [];
const reporter = new RunReporter({
  options: { apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, flushInterval: 10, debug: true },
  framework: { name: 'mocha', version: '11.0.0' },
  rootDir: process.cwd(),
  write: (text) => lines.push(text),
});
reporter.startRun();
reporter.addResults([{ testSuite: 'a.test.js', testCase: 'on the wire', status: 'passed', duration: 1 }]);
await new Promise((resolve) => setTimeout(resolve, 300));
FakeTimers.install({ toFake: ['nextTick', 'queueMicrotask', 'setTimeout', 'setImmediate'] });
const summary = await reporter.endRun();
console.log(JSON.stringify({ delivered: summary.delivered, spooled: summary.spooled, lines }));
`;

it('sends a batch that was in flight when a test faked the task queues again at once, and stores it once', async () => {
  // The results request is answered late, so the fakes arrive while it is in flight.
  const { server, url, apiKey } = await startTestServer({
    faults: ({ route, n }) => (route === 'submitResults' && n === 0 ? { delayMs: 600 } : undefined),
  });
  const testUtils = fileURLToPath(new URL('../../../test-utils/package.json', import.meta.url));
  const { result } = await runNodeScript<{ delivered: number; spooled: number; lines: string[] }>(
    strandedScript,
    {
      env: { KEY: apiKey, URL: url, TEST_UTILS: testUtils },
    },
  );
  expect({ delivered: result.delivered, spooled: result.spooled }).toEqual({ delivered: 1, spooled: 0 });
  const attempts = result.lines.filter((line) => line.includes('/results'));
  expect(attempts, result.lines.join('\n')).toEqual([
    expect.stringMatching(
      /abandoned after [\d.]+ m?s: it was in flight while a test faked process\.nextTick.*sent again at once/,
    ),
    expect.stringMatching(/→ 20\d in [\d.]+ m?s/),
  ]);
  expect(
    (await server.store.results((await server.store.runs())[0]!.id)).map((stored) => stored.testCase),
  ).toEqual(['on the wire']);
});
