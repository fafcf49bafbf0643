import { identities, resultsIn, startTestServer, type TestServer } from '@testrun/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { TestrunWebdriverioReporter } from '../src/reporter.js';
import type { WdioEvent } from '../src/wdio-events.js';
import { attempts, recording } from './recorded-events.js';

// The reporter as WebdriverIO drives it (one instance per worker, `emit` per event, then
// `isSynchronised` polled until the worker may exit), fed recorded events, against a real server.

function worker(server: TestServer, events: readonly WdioEvent[]) {
  const reporter = new TestrunWebdriverioReporter({
    apiKey: server.apiKey,
    baseUrl: server.url,
    project: 'recorded',
    ciTags: false,
  });
  for (const { name, payload } of events) reporter.emit(name, payload);
  return reporter;
}

const synchronised = (reporter: TestrunWebdriverioReporter) =>
  vi.waitFor(() => expect(reporter.isSynchronised).toBe(true), { timeout: 10_000 });

describe('TestrunWebdriverioReporter', () => {
  it('keeps the worker waiting until its results are delivered', async () => {
    const server = await startTestServer();
    const reporter = worker(server, recording('mocha')['0-0']!);
    expect(reporter.isSynchronised).toBe(false);
    await synchronised(reporter);
    const [run] = await server.server.store.runs();
    expect(await server.server.store.results(run!.id)).toHaveLength(4);
  });

  it('sends a spec file’s tests when its top-level suite ends, before the worker ends', async () => {
    const server = await startTestServer();
    const events = recording('mocha')['0-0']!;
    const topLevelEnd = events.findIndex(
      ({ name, payload }) => name === 'suite:end' && !(payload as { parent?: string }).parent,
    );
    const reporter = new TestrunWebdriverioReporter({
      apiKey: server.apiKey,
      baseUrl: server.url,
      ciTags: false,
      flushInterval: 10,
    });
    for (const { name, payload } of events.slice(0, topLevelEnd + 1)) reporter.emit(name, payload);
    await vi.waitFor(
      async () => {
        const [run] = await server.server.store.runs();
        expect(run && (await server.server.store.results(run.id))).toHaveLength(4);
      },
      { timeout: 10_000 },
    );
    for (const { name, payload } of events.slice(topLevelEnd + 1)) reporter.emit(name, payload);
    await synchronised(reporter);
  });

  it('sends nothing of an attempt WebdriverIO runs again, and the last attempt’s results', async () => {
    const server = await startTestServer();
    const [first, second] = attempts(recording('mocha-retried')['0-0']!);
    const retried = worker(server, first!);
    await synchronised(retried);
    expect(await server.server.store.runs()).toEqual([]);
    await synchronised(worker(server, second!));
    const [run] = await server.server.store.runs();
    expect(identities(await server.server.store.results(run!.id))).toEqual(
      identities(
        resultsIn('packages/test-utils/fixtures/webdriverio/mocha/retried/flaky-file.spec.js', [
          ['a flaky file > passes when WebdriverIO runs the file again', 'passed'],
        ]),
      ),
    );
  });

  it('takes no option of WebdriverIO’s own for one of testrun’s', async () => {
    const server = await startTestServer();
    const reporter = new TestrunWebdriverioReporter({
      apiKey: server.apiKey,
      baseUrl: server.url,
      ciTags: false,
      logFile: '/tmp/wdio.log',
      outputDir: '/tmp',
      writeStream: {},
    } as never);
    for (const { name, payload } of recording('jasmine')['0-0']!) reporter.emit(name, payload);
    await synchronised(reporter);
    expect(await server.server.store.runs()).toHaveLength(1);
  });
});
