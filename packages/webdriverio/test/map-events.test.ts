import os from 'node:os';
import path from 'node:path';
import { type FileReport, toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { capabilityIndex, capabilityLabels, labelsFromEnv } from '../src/capabilities.js';
import { addCucumberFormatter, CUCUMBER_FORMATTER } from '../src/cucumber-formatter.js';
import { reporterOptionsIn } from '../src/launcher.js';
import { CUCUMBER_EVENTS, pathOf, WdioMapping, willBeRetried, worstOf } from '../src/map-events.js';
import { testrunOptions } from '../src/reporter.js';
import type { WdioEvent, WdioRunnerEnd } from '../src/wdio-events.js';
import { attempts, FIXTURES, recording } from './recorded-events.js';

// The mapping on WebdriverIO's own events (fixtures/recorded): what each spec file becomes.

/** (file relative to the fixtures, titles joined, status) of every test in `files`. */
function summary(files: readonly FileReport[]) {
  return files.flatMap(({ file, tests, failedOutsideTests }) => [
    ...tests.map((test) => [path.relative(FIXTURES, file), test.titles.join(' > '), test.status]),
    ...(failedOutsideTests ? [[path.relative(FIXTURES, file), '(failed outside its tests)', 'failed']] : []),
  ]);
}

function mapWorker(events: readonly WdioEvent[]) {
  return new WdioMapping().take(events, true);
}

describe('the Mocha framework’s events', () => {
  const workers = recording('mocha');

  it('become the tests of each spec file, titled by their describe blocks, a retried test as its last attempt', () => {
    expect(summary(mapWorker(workers['0-0']!))).toEqual([
      ['mocha/specs/cart.spec.js', 'cart > opens a blank page', 'passed'],
      ['mocha/specs/cart.spec.js', 'cart > fails on purpose', 'failed'],
      ['mocha/specs/cart.spec.js', 'cart > is skipped', 'skipped'],
      ['mocha/specs/cart.spec.js', 'cart > totals > passes on its retry', 'passed'],
    ]);
  });

  it('say a test passed on its Mocha retry took two attempts, and no other test did', () => {
    const [cart] = mapWorker(workers['0-0']!);
    expect(cart!.tests.map((test) => [test.titles.at(-1), test.attempts])).toEqual([
      ['opens a blank page', undefined],
      ['fails on purpose', undefined],
      ['is skipped', undefined],
      ['passes on its retry', 2],
    ]);
  });

  it('hand core why a test failed: its error, and its line in the spec file', () => {
    const [cart] = mapWorker(workers['0-0']!);
    const failed = cart!.tests.find((test) => test.status === 'failed')!;
    const context = { file: cart!.file, rootDir: FIXTURES, secrets: undefined };
    expect(toFailureDetails(failed.failure, context)).toMatchObject({
      message: 'Expected values to be strictly equal:\n\n2 !== 3',
      location: 'mocha/specs/cart.spec.js:12:12',
    });
    expect(cart!.tests.filter((test) => test.status !== 'failed').every((test) => !test.failure)).toBe(true);
  });

  it('fail the file of a before hook that failed: WebdriverIO reports none of the tests it prevented', () => {
    expect(summary(mapWorker(workers['0-1']!))).toEqual([
      ['mocha/specs/setup.spec.js', 'checkout > runs beside the failing block', 'passed'],
      ['mocha/specs/setup.spec.js', '(failed outside its tests)', 'failed'],
    ]);
  });

  it('come in parts, each top-level suite’s tests when it ends', () => {
    const events = workers['0-0']!;
    const end = events.findIndex(
      (event) => event.name === 'suite:end' && !(event.payload as { parent?: string }).parent,
    );
    const mapping = new WdioMapping();
    expect(mapping.take(events.slice(0, end + 1)).flatMap((file) => file.tests)).toHaveLength(4);
    expect(mapping.take(events.slice(end + 1), true)).toEqual([]);
  });

  it('keep durations as WebdriverIO measured them', () => {
    const [cart] = mapWorker(workers['0-0']!);
    expect(cart!.tests.every((test) => typeof test.duration === 'number')).toBe(true);
    expect(cart!.tests[0]!.duration).toBeGreaterThan(0);
  });
});

describe('a spec file WebdriverIO runs again (specFileRetries: 1)', () => {
  const [first, second] = attempts(recording('mocha-retried')['0-0']!);
  const endOf = (events: WdioEvent[]) => events.at(-1)!.payload as WdioRunnerEnd;

  it('is an attempt to drop after a failure with retries left, the last attempt to report', () => {
    expect(willBeRetried(endOf(first!), 1)).toBe(true);
    expect(willBeRetried(endOf(second!), 1)).toBe(false);
    expect(summary(mapWorker(second!))).toEqual([
      [
        'mocha/retried/flaky-file.spec.js',
        'a flaky file > passes when WebdriverIO runs the file again',
        'passed',
      ],
    ]);
  });

  it('is never retried without specFileRetries, nor after a passing attempt', () => {
    expect(willBeRetried({ failures: 1, retries: -1 }, 0)).toBe(false);
    expect(willBeRetried({ failures: 0, retries: 2 }, 2)).toBe(false);
  });
});

describe('the Jasmine framework’s events', () => {
  it('name the worker’s spec file, not the file a spec’s stack named (WebdriverIO’s own)', () => {
    expect(summary(mapWorker(recording('jasmine')['0-0']!))).toEqual([
      ['jasmine/specs/cart.spec.js', 'cart > opens a blank page', 'passed'],
      ['jasmine/specs/cart.spec.js', 'cart > fails on purpose', 'failed'],
      ['jasmine/specs/cart.spec.js', 'cart > is skipped', 'skipped'],
      ['jasmine/specs/cart.spec.js', 'cart > totals > sums line items', 'passed'],
    ]);
  });
});

describe('the Cucumber framework’s events', () => {
  it('become one result per scenario and outline example, with the worst of its steps', () => {
    expect(summary(mapWorker(recording('cucumber')['0-0']!))).toEqual([
      ['cucumber/features/cart.feature', 'cart > opens a blank page', 'passed'],
      ['cucumber/features/cart.feature', 'cart > fails on purpose', 'failed'],
      ['cucumber/features/cart.feature', 'cart > adds 1 and 1', 'passed'],
      ['cucumber/features/cart.feature', 'cart > adds 2 and 3', 'passed'],
    ]);
  });

  it('a scenario whose steps all skipped is skipped; a failed step or hook fails it', () => {
    expect(worstOf(['skipped', 'skipped'])).toBe('skipped');
    expect(worstOf(['passed', 'skipped'])).toBe('passed');
    expect(worstOf(['passed', 'failed', 'skipped'])).toBe('failed');
  });
});

describe('a worker whose session did not start', () => {
  it('fails each of its spec files, named as runner:start names them (file URLs)', () => {
    const [start] = recording('mocha')['0-0']!;
    const files = mapWorker([
      start!,
      { name: 'runner:end', payload: { failures: 1, retries: -1, error: 'Failed to create session.' } },
    ]);
    expect(summary(files)).toEqual([['mocha/specs/cart.spec.js', '(failed outside its tests)', 'failed']]);
    expect(files[0]!.failure).toEqual({
      errors: ['the browser session did not start: Failed to create session.'],
    });
  });

  it('and one that counted a failure no test or hook says fails them too (a spec file that did not load)', () => {
    const [start] = recording('mocha')['0-0']!;
    expect(mapWorker([start!, { name: 'runner:end', payload: { failures: 1 } }])).toEqual([
      {
        file: path.join(FIXTURES, 'mocha/specs/cart.spec.js'),
        tests: [],
        failedOutsideTests: true,
        failure: {
          errors: [
            "WebdriverIO's worker ended with 1 failure that no test or hook reported: the spec file did not load (its error is in the worker's output)",
          ],
        },
      },
    ]);
  });
});

describe('capabilities', () => {
  it('are labelled by browserName, a repeated one with its position', () => {
    expect(
      capabilityLabels([
        { browserName: 'chrome' },
        { browserName: 'chrome' },
        { browserName: 'firefox' },
        {},
      ]),
    ).toEqual(['chrome', 'chrome-2', 'firefox', 'browser']);
    expect(capabilityLabels(undefined)).toEqual([]);
  });

  it('a worker’s is the first number of its id', () => {
    expect(capabilityIndex('1-0')).toBe(1);
    expect(capabilityIndex('0-12')).toBe(0);
    expect(capabilityIndex(undefined)).toBe(0);
  });

  it('the labels the launcher handed down are read back, none when there was no launcher', () => {
    expect(labelsFromEnv({ TESTRUN_WDIO_CAPABILITIES: '["chrome","chrome-2"]' })).toEqual([
      'chrome',
      'chrome-2',
    ]);
    expect(labelsFromEnv({})).toEqual([]);
    expect(labelsFromEnv({ TESTRUN_WDIO_CAPABILITIES: 'not json' })).toEqual([]);
  });
});

describe('options', () => {
  it('are testrun’s without what WebdriverIO adds to every reporter’s', () => {
    expect(
      testrunOptions({
        project: 'e2e',
        logFile: '/tmp/x.log',
        writeStream: {},
        outputDir: '/tmp',
        stdout: true,
      }),
    ).toEqual({ project: 'e2e' });
  });

  it('of the reporter in `reporters` are the launcher service’s too', () => {
    const config = { reporters: ['dot', ['@testrun/webdriverio', { project: 'e2e', logFile: '/tmp/x' }]] };
    expect(reporterOptionsIn(config)).toEqual({ project: 'e2e' });
    expect(reporterOptionsIn({ reporters: ['@testrun/webdriverio'] })).toEqual({});
    expect(reporterOptionsIn({})).toEqual({});
  });

  it('a spec named by a file URL is a path', () => {
    expect(pathOf('file:///work/a%20b/spec.js')).toBe('/work/a b/spec.js');
    expect(pathOf('/work/spec.js')).toBe('/work/spec.js');
  });
});

describe('the Cucumber framework with the worker service’s formatter in place', () => {
  const cucumberWorker = () => recording('cucumber')['0-0']!;

  it('takes the scenarios from Cucumber’s messages alone, and none of WebdriverIO’s scenario events', () => {
    const [start, ...rest] = cucumberWorker();
    const file = path.join(FIXTURES, 'cucumber/features/cart.feature');
    const fromMessages: FileReport = {
      file,
      tests: [{ titles: ['cart', 'adds 1 and 1', 'Example #1.1'], status: 'passed', duration: 3 }],
    };
    const mapping = new WdioMapping();
    const files = mapping.take(
      [
        start!,
        { name: CUCUMBER_EVENTS.started, payload: {} },
        ...rest.filter((event) => event.name !== 'runner:end'),
        { name: CUCUMBER_EVENTS.file, payload: fromMessages as never },
        { name: CUCUMBER_EVENTS.runError, payload: 'a BeforeAll hook failed: boom' as never },
        { name: 'runner:end', payload: { failures: 1 } },
      ],
      true,
    );
    expect(files).toEqual([fromMessages]);
    expect(mapping.takeRunErrors()).toEqual(['a BeforeAll hook failed: boom']);
    // The worker's failure is accounted for by the run error: its file is not failed besides.
    expect(mapping.takeRunErrors()).toEqual([]);
  });
});

describe('the worker service', () => {
  it('adds the formatter to a Cucumber configuration once, after the user’s own, writing to the null device', () => {
    const config = { framework: 'cucumber', cucumberOpts: { format: ['progress', ['json', 'out.json']] } };
    addCucumberFormatter(config);
    addCucumberFormatter(config);
    expect(config.cucumberOpts.format).toEqual([
      'progress',
      ['json', 'out.json'],
      [CUCUMBER_FORMATTER, os.devNull],
    ]);
    const bare: { framework: string; cucumberOpts?: unknown } = { framework: 'cucumber' };
    addCucumberFormatter(bare);
    expect(bare.cucumberOpts).toEqual({ format: [[CUCUMBER_FORMATTER, os.devNull]] });
  });

  it('leaves Mocha and Jasmine configurations as they are', () => {
    for (const framework of ['mocha', 'jasmine']) {
      const config = { framework };
      addCucumberFormatter(config);
      expect(config).toEqual({ framework });
    }
  });
});

describe('two tests of one title under Mocha or Jasmine', () => {
  it('are two results of one name, as @testrun/mocha and @testrun/jasmine store them: no number is added', () => {
    const file = path.join(FIXTURES, 'mocha/specs/cart.spec.js');
    const test = (uid: string, event: string) => ({
      name: event,
      payload: { uid, title: 'rounds', file, type: 'test', duration: 1 },
    });
    const files = mapWorker([
      { name: 'runner:start', payload: { specs: [`file://${file}`] } },
      { name: 'suite:start', payload: { uid: 's', title: 'totals', file, type: 'suite' } },
      test('t1', 'test:pass'),
      test('t2', 'test:fail'),
      { name: 'suite:end', payload: { uid: 's', title: 'totals', file, type: 'suite' } },
    ]);
    expect(summary(files)).toEqual([
      ['mocha/specs/cart.spec.js', 'totals > rounds', 'passed'],
      ['mocha/specs/cart.spec.js', 'totals > rounds', 'failed'],
    ]);
  });
});
