import path from 'node:path';
import { type FileReport, toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { type JasmineEvent, JasmineMapping, statusOf } from '../src/map-events.js';
import { endsTopLevelBlock, type Mode, RECORDED_PROJECT, recording } from './recorded-events.js';

/** Each test as `file: titles > joined status`, sorted; a file that failed outside its specs as `file: (failed outside specs)`. */
function summary(files: readonly FileReport[]): string[] {
  const lines: string[] = [];
  for (const { file, tests, failedOutsideTests } of files) {
    const name = path.relative(RECORDED_PROJECT, file);
    for (const test of tests) lines.push(`${name}: ${test.titles.join(' > ')} ${test.status}`);
    if (failedOutsideTests) lines.push(`${name}: (failed outside specs)`);
  }
  return lines.sort();
}

/** The events handed over as the reporter does: after each top-level block, the rest at the end. */
function mapAsTheReporter(events: readonly JasmineEvent[]) {
  const mapping = new JasmineMapping();
  const files: FileReport[] = [];
  const runErrors: string[] = [];
  let held: JasmineEvent[] = [];
  for (const event of events) {
    held.push(event);
    if (!endsTopLevelBlock(event)) continue;
    const taken = mapping.take(held);
    files.push(...taken.files);
    runErrors.push(...taken.runErrors);
    held = [];
  }
  const last = mapping.take(held, true);
  return { files: [...files, ...last.files], runErrors: [...runErrors, ...last.runErrors] };
}

/** What both recordings hold for the files they share. */
const SHARED = [
  'spec/cart.spec.js: a test outside any describe passed',
  'spec/cart.spec.js: cart > fails on purpose failed',
  'spec/cart.spec.js: cart > legacy checkout > still charges the card skipped',
  'spec/cart.spec.js: cart > totals > calls pending() skipped',
  'spec/cart.spec.js: cart > totals > is pending without a function skipped',
  'spec/cart.spec.js: cart > totals > rounds half cents to even skipped',
  'spec/cart.spec.js: cart > totals > sums line items passed',
  'spec/describe-throws.spec.js: (failed outside specs)',
  'spec/describe-throws.spec.js: a describe whose body throws > is declared before the throw passed',
  'spec/each-fails.spec.js: after each > passes but its afterEach fails failed',
  'spec/each-fails.spec.js: each > first under a failing beforeEach failed',
  'spec/each-fails.spec.js: each > second under a failing beforeEach failed',
  'spec/late-error.spec.js: late > passes, then its timer throws failed',
  'spec/late-error.spec.js: late > waits for the timer passed',
  'spec/setup-fails.spec.js: (failed outside specs)',
  'spec/setup-fails.spec.js: database > nested > writes a row failed',
  'spec/setup-fails.spec.js: database > reads a row failed',
  'spec/setup-fails.spec.js: runs outside the failing block passed',
  'spec/teardown-fails.spec.js: (failed outside specs)',
  'spec/teardown-fails.spec.js: teardown > passes before the teardown passed',
  'spec/top-teardown-fails.spec.js: (failed outside specs)',
];

describe('JasmineMapping on recorded Jasmine events', () => {
  it('names a serial run: suites and spec joined, pending skipped, a failed suite or top-level afterAll failing its file', () => {
    const { files, runErrors } = mapAsTheReporter(recording('serial').events);
    expect(summary(files)).toEqual(
      [...SHARED, 'spec/top-teardown-fails.spec.js: passes before a top-level teardown passed'].sort(),
    );
    expect(runErrors).toEqual([]);
  });

  it("names a --parallel run from the workers' interleaved copies, a file that failed to load failing itself", () => {
    const { files, runErrors } = mapAsTheReporter(recording('parallel').events);
    expect(summary(files)).toEqual(
      [
        ...SHARED,
        // SHARED's top-teardown-fails.spec.js fails here because it fails to load: parallel
        // mode refuses a top-level afterAll, so its spec never runs.
        'load-error/import-throws.spec.js: (failed outside specs)',
      ].sort(),
    );
    expect(runErrors).toEqual([]);
  });

  it.each<Mode>(['serial', 'parallel'])(
    'gives the same results handed over after each block as all at once (%s)',
    (mode) => {
      const { events } = recording(mode);
      const atOnce = new JasmineMapping().take(events, true);
      expect(summary(atOnce.files)).toEqual(summary(mapAsTheReporter(events).files));
    },
  );

  it('hands core why a spec failed: its failed expectations, the line of the spec file in their stack', () => {
    const { files } = mapAsTheReporter(recording('serial').events);
    const cart = files.find(
      (file) => file.file.endsWith('cart.spec.js') && file.tests.some((t) => t.status === 'failed'),
    )!;
    const failed = cart.tests.find((test) => test.status === 'failed')!;
    const context = { file: cart.file, rootDir: RECORDED_PROJECT, secrets: undefined };
    expect(toFailureDetails(failed.failure, context)).toMatchObject({
      message: 'Expected 1 to be 2.',
      location: 'spec/cart.spec.js:17:15',
    });
  });

  it.each<Mode>(['serial', 'parallel'])(
    'hands core what failed a file outside its specs: the suite’s, the top-level afterAll’s, the load error (%s)',
    (mode) => {
      const { files } = mapAsTheReporter(recording(mode).events);
      const said = files
        .filter((file) => file.failedOutsideTests)
        .map((file) => {
          const context = { file: file.file, rootDir: RECORDED_PROJECT, secrets: undefined };
          const message = toFailureDetails(file.failure, context)?.message ?? '';
          return `${path.relative(RECORDED_PROJECT, file.file)}: ${message.split('\n')[0]!.replaceAll(RECORDED_PROJECT, '<project>')}`;
        });
      const shared = [
        'spec/describe-throws.spec.js: Error: describe body throws',
        'spec/setup-fails.spec.js: Error: cannot connect',
        'spec/teardown-fails.spec.js: Error: cannot disconnect',
      ];
      expect(said.sort()).toEqual(
        mode === 'serial'
          ? [...shared, 'spec/top-teardown-fails.spec.js: Error: top-level teardown'].sort()
          : [
              ...shared,
              "load-error/import-throws.spec.js: Error loading <project>/load-error/import-throws.spec.js: Cannot find module './does-not-exist.js'",
              "spec/top-teardown-fails.spec.js: Error loading <project>/spec/top-teardown-fails.spec.js: In parallel mode, 'afterAll' must be in a describe block. Use the globalTeardown config property for exactly-once teardown in parallel mode.",
            ].sort(),
      );
    },
  );

  it.each<Mode>(['serial', 'parallel'])(
    'hands a spec a failed beforeAll kept from running the hook’s error, which Jasmine reports on the suite (%s)',
    (mode) => {
      const { files } = mapAsTheReporter(recording(mode).events);
      const setup = files.filter((file) => file.file.endsWith('setup-fails.spec.js'));
      const failed = setup.flatMap((file) =>
        file.tests
          .filter((test) => test.status === 'failed')
          .map((test) => {
            const context = { file: file.file, rootDir: RECORDED_PROJECT, secrets: undefined };
            return [test.titles.join(' > '), toFailureDetails(test.failure, context)];
          }),
      );
      const why = { message: 'Error: cannot connect', location: 'spec/setup-fails.spec.js:3:11' };
      expect(failed).toEqual([
        ['database > reads a row', expect.objectContaining(why)],
        ['database > nested > writes a row', expect.objectContaining(why)],
      ]);
    },
  );

  it('reports a file that failed outside its specs once, at the end, after all its specs', () => {
    const mapping = new JasmineMapping();
    const events = recording('serial').events;
    const beforeEnd = mapping.take(events);
    expect(beforeEnd.files.some((file) => file.failedOutsideTests)).toBe(false);
    const end = mapping.take([], true);
    expect(end.files.every((file) => file.tests.length === 0 && file.failedOutsideTests)).toBe(true);
    expect(end.files).toHaveLength(4);
  });
});

describe('JasmineMapping on errors outside any spec', () => {
  const spec = (filename: string): JasmineEvent => ({
    name: 'specDone',
    result: {
      id: 'spec0',
      description: 'passes',
      parentSuiteId: null,
      filename,
      status: 'passed',
      duration: 2,
    },
  });

  it('fails the file whose path the stack names, else the run', () => {
    const mapping = new JasmineMapping();
    const { files, runErrors } = mapping.take(
      [
        spec('/repo/spec/a.spec.js'),
        spec('/repo/spec/a.spec.jsx'),
        {
          name: 'jasmineDone',
          info: {
            failedExpectations: [
              {
                message: 'Error: in a',
                stack: 'at x (/repo/spec/a.spec.jsx:1:2)',
                globalErrorType: 'afterAll',
              },
              {
                message: 'Error: nowhere',
                stack: 'at y (/repo/lib/util.js:3:4)',
                globalErrorType: 'lateError',
              },
            ],
          },
        },
      ],
      true,
    );
    expect(files.filter((file) => file.failedOutsideTests).map((file) => file.file)).toEqual([
      '/repo/spec/a.spec.jsx',
    ]);
    expect(runErrors).toEqual(['Error: nowhere']);
  });

  it('names a spec by its own description when its suites were never seen', () => {
    const { files } = new JasmineMapping().take([
      {
        name: 'specDone',
        result: {
          id: '3-spec1',
          description: 'orphan',
          parentSuiteId: 'suite9',
          filename: '/r/a.js',
          status: 'failed',
        },
      },
    ]);
    expect(files).toEqual([
      {
        file: '/r/a.js',
        tests: [{ titles: ['orphan'], status: 'failed', duration: 0, failure: { errors: [] } }],
      },
    ]);
  });
});

describe('statusOf', () => {
  it("maps pending, excluded and Jasmine 7's notApplicable to skipped, and what Jasmine does not document to failed", () => {
    const statuses = ['passed', 'failed', 'pending', 'excluded', 'notApplicable', 'incomplete', undefined];
    expect(statuses.map(statusOf)).toEqual([
      'passed',
      'failed',
      'skipped',
      'skipped',
      'skipped',
      'failed',
      'failed',
    ]);
  });
});
