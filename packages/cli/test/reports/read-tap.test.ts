import fs from 'node:fs';
import path from 'node:path';
import { recordedTap, TAP_WRITERS, tapWriterResults, tempDir } from '@testrun/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import type { MappedCase } from '../../src/reports/map-junit.js';
import { mapTapIncomplete, mapTapPoint } from '../../src/reports/map-tap.js';
import { ReportReadError } from '../../src/reports/open-report.js';
import {
  MAX_TAP_DEPTH,
  MAX_TAP_DIAGNOSTICS,
  MAX_TAP_LINE,
  readTap,
  type TapEvent,
} from '../../src/reports/read-tap.js';
import { eventsOfReport } from './report-events.js';

// The mapping of TAP, on what real writers wrote (recorded/ in the TAP fixture: node-tap,
// AVA, node --test and tape running the same tests) and on the shapes of TAP 13 and 14
// the writers here do not write.

const dir = tempDir('testrun-read-tap-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let written = 0;
function tapFile(content: string): string {
  const file = path.join(dir, `report-${written++}.tap`);
  fs.writeFileSync(file, content);
  return file;
}

function eventsOf(file: string): Promise<TapEvent[]> {
  return eventsOfReport(file, 'reports/unit.tap', 'tap', readTap);
}

async function mappedOf(file: string, suite = 'suite'): Promise<MappedCase[]> {
  return (await eventsOf(file)).flatMap((event) => {
    if (event.kind === 'long-lines' || event.kind === 'long-diagnostics') return [];
    const mapped =
      event.kind === 'point' ? mapTapPoint(event.point, suite) : mapTapIncomplete(event.incomplete, suite);
    return mapped ? [mapped] : [];
  });
}

/** (testSuite, testCase, status) as core will name them: a file's tests by the file, as given. */
function named(mapped: readonly MappedCase[]) {
  return mapped.map((item) =>
    item.kind === 'file'
      ? { testSuite: item.file, testCase: item.test.titles.join(' > '), status: item.test.status }
      : { testSuite: item.result.testSuite, testCase: item.result.testCase, status: item.result.status },
  );
}

const byName = (a: { testSuite: unknown; testCase: unknown }, b: { testSuite: unknown; testCase: unknown }) =>
  `${a.testSuite}\n${a.testCase}`.localeCompare(`${b.testSuite}\n${b.testCase}`);

function failureOf(mapped: readonly MappedCase[], testCase: string) {
  const found = mapped.find((item) =>
    item.kind === 'file' ? item.test.titles.join(' > ') === testCase : item.result.testCase === testCase,
  );
  return found?.kind === 'file' ? found.test.failure : found?.result.failure;
}

describe('what real writers wrote', () => {
  it.each(TAP_WRITERS)('%s: every result, as the runner counted it', async (writer) => {
    const mapped = await mappedOf(recordedTap(writer));
    expect(named(mapped).sort(byName)).toEqual(tapWriterResults(writer, 'suite').sort(byName));
  });

  it('reads why a test failed from each writer’s YAML: message, comparison, stack and where', async () => {
    const failures = Object.fromEntries(
      await Promise.all(
        [
          ['node-tap', 'cart > applies a coupon > takes 20% off'],
          ['ava', 'cart › applies a coupon'],
          ['node-test', 'cart > applies a coupon'],
          ['tape', 'cart applies a coupon > takes 20% off'],
        ].map(async ([writer, testCase]) => [
          writer,
          failureOf(await mappedOf(recordedTap(writer as (typeof TAP_WRITERS)[number])), testCase!),
        ]),
      ),
    );
    expect(failures['node-tap']).toEqual({
      errors: [
        {
          message: 'takes 20% off\n--- expected\n+++ actual\n@@ -1,1 +1,1 @@\n-8\n+9',
          stack: 'Test.<anonymous> (node-tap/cart.test.js:9:7)\n',
        },
      ],
      location: { file: 'node-tap/cart.test.js', line: 9, column: 7 },
    });
    // AVA's `at` is its own assert module: no location.
    expect(failures.ava).toEqual({
      errors: [{ message: 'takes 20% off\nDifference (- actual, + expected): - 9\n+ 8', stack: '' }],
      location: undefined,
    });
    expect(failures['node-test']).toMatchObject({
      errors: [
        {
          message: 'takes 20% off\n\n9 !== 8',
          stack: expect.stringMatching(
            /^TestContext\.<anonymous> \(\/checkout\/node-test\/cart\.test\.js:9:12\)/,
          ),
        },
      ],
      // Its first frame of the file where the test is declared.
      location: { file: '/checkout/node-test/cart.test.js', line: '9', column: '12' },
      declaredAt: { file: '/checkout/node-test/cart.test.js', line: '8', column: '3' },
    });
    expect(failures.tape).toMatchObject({
      errors: [
        {
          message: 'takes 20% off\nexpected: 8\nactual: 9',
          stack: expect.stringMatching(/^Error: takes 20% off\n/),
        },
      ],
      location: { file: '/checkout/tape/cart.js', line: '9', column: '5' },
    });
  });

  it('takes durations from node-tap’s # time= and node --test’s duration_ms, none from AVA', async () => {
    const durations = async (writer: (typeof TAP_WRITERS)[number]) =>
      (await mappedOf(recordedTap(writer))).map((item) =>
        item.kind === 'file' ? item.test.duration : item.result.duration,
      );
    expect(
      (await durations('node-test')).every((duration) => typeof duration === 'number' && duration > 0),
    ).toBe(true);
    expect(await durations('ava')).toEqual(Array(6).fill(undefined));
    // node-tap times its subtests, not its assertions.
    expect(await durations('node-tap')).toEqual(Array(7).fill(undefined));
  });
});

describe('TAP 13 and 14 as the writers here do not write them', () => {
  it('names a TAP 13 subtest without a # Subtest comment by its closing point, and reads TAP 14 buffered subtests', async () => {
    const mapped = await mappedOf(
      tapFile(`TAP version 13
    ok 1 - inner a
        ok 1 - deepest
        1..1
    ok 2 - middle
    1..2
ok 1 - outer
TAP version 14
ok 2 - buffered {
    ok 1 - inside
    1..1
}
1..2
`),
    );
    expect(named(mapped)).toEqual([
      { testSuite: 'suite', testCase: 'outer > inner a', status: 'passed' },
      { testSuite: 'suite', testCase: 'outer > middle > deepest', status: 'passed' },
      { testSuite: 'suite', testCase: 'buffered > inside', status: 'passed' },
    ]);
  });

  it('makes a subtest that failed with nothing inside failing a result; a test file’s is (file failed to run)', async () => {
    const mapped = await mappedOf(
      tapFile(`TAP version 14
# Subtest: test/cart.test.js
    # Subtest: totals
        ok 1 - sums
        1..1
    not ok 1 - totals
      ---
      error: after hook failed
      ...
    # Subtest: checkout
        not ok 1 - pays
        1..1
    not ok 2 - checkout
    1..2
not ok 1 - test/cart.test.js
# Subtest: test/crash.test.js
    ok 1 - runs
    1..1
not ok 2 - test/crash.test.js
  ---
  exitCode: 1
  signal: null
  ...
1..2
`),
    );
    expect(named(mapped)).toEqual([
      { testSuite: 'test/cart.test.js', testCase: 'totals > sums', status: 'passed' },
      { testSuite: 'test/cart.test.js', testCase: 'totals', status: 'failed' },
      { testSuite: 'test/cart.test.js', testCase: 'checkout > pays', status: 'failed' },
      { testSuite: 'test/crash.test.js', testCase: 'runs', status: 'passed' },
      { testSuite: 'test/crash.test.js', testCase: '(file failed to run)', status: 'failed' },
    ]);
    expect(failureOf(mapped, 'totals')?.errors).toEqual([{ message: 'after hook failed', stack: '' }]);
    expect(failureOf(mapped, '(file failed to run)')?.errors).toEqual([
      { message: 'test/crash.test.js\nits process exited with code 1', stack: '' },
    ]);
  });

  it('reads # SKIP and # TODO whatever their case and reason; an ok TODO is still todo', async () => {
    const mapped = await mappedOf(
      tapFile(
        '1..4\nok 1 - a # skip not here\nnot ok 2 - b # TODO later\nok 3 - c # todo\nnot ok 4 - d # Skipped\n',
      ),
    );
    expect(named(mapped).map(({ status }) => status)).toEqual(['skipped', 'todo', 'todo', 'skipped']);
  });

  it('names a point without a description (unnamed), and no comment names points where a point came first', async () => {
    const mapped = await mappedOf(
      tapFile(`1..2
not ok 1 addition
# (in test file test.bats, line 4)
#   \`[ "$result" -eq 5 ]' failed
ok 2
`),
    );
    expect(named(mapped)).toEqual([
      { testSuite: 'suite', testCase: 'addition', status: 'failed' },
      { testSuite: 'suite', testCase: '(unnamed)', status: 'passed' },
    ]);
  });
});

describe('comments', () => {
  it('name no test where node --test wrote a test’s console output before its # Subtest', async () => {
    const mapped = await mappedOf(
      tapFile(
        'TAP version 13\n# hello from a\n# Subtest: a\nok 1 - a\n# Subtest: b\nok 2 - b\n1..2\n# tests 2\n',
      ),
    );
    expect(named(mapped).map(({ testCase }) => testCase)).toEqual(['a', 'b']);
  });

  it('name no test in a stream whose plan comes first (Test::More, bats)', async () => {
    const mapped = await mappedOf(tapFile('1..2\n# Running the suite\nok 1 - a\nok 2 - b\n'));
    expect(named(mapped).map(({ testCase }) => testCase)).toEqual(['a', 'b']);
  });

  it('make tape’s skipped tests results, however many come before its first assertion', async () => {
    const mapped = await mappedOf(
      tapFile('TAP version 13\n# SKIP first\n# SKIP second\n\n1..0\n# tests 0\n# pass  0\n\n# ok\n'),
    );
    expect(named(mapped)).toEqual([
      { testSuite: 'suite', testCase: 'first', status: 'skipped' },
      { testSuite: 'suite', testCase: 'second', status: 'skipped' },
    ]);
  });
});

describe('a stream whose tests did not all run', () => {
  it.each([
    [
      'Bail out!',
      'TAP version 13\nok 1 - a\nBail out! database down\nok 2 - b\n',
      'it bailed out (Bail out! database down)',
    ],
    ['a plan not met', '1..3\nok 1 - a\n', 'its plan was 3 tests, 1 reported'],
    [
      'no plan at its end',
      'TAP version 13\nok 1 - a\n',
      'it ends without a plan (1..N): was the test process stopped while it wrote it?',
    ],
  ])(
    '%s, with nothing failed: a failed (file failed to run) of its suite says why',
    async (_, content, reason) => {
      const events = await eventsOf(tapFile(content));
      expect(events.at(-1)).toEqual({ kind: 'incomplete', incomplete: { reason, nothingFailed: true } });
      const mapped = await mappedOf(tapFile(content), 'api');
      expect(named(mapped).at(-1)).toEqual({
        testSuite: 'api',
        testCase: '(file failed to run)',
        status: 'failed',
      });
      expect(failureOf(mapped, '(file failed to run)')?.errors).toEqual([
        `The TAP stream's tests did not all run: ${reason}`,
      ]);
    },
  );

  it('adds nothing where a result failed already (as with --bail, the tests that never ran are not reported)', async () => {
    const mapped = await mappedOf(tapFile('TAP version 13\nnot ok 1 - a\nBail out!\n'));
    expect(named(mapped)).toEqual([{ testSuite: 'suite', testCase: 'a', status: 'failed' }]);
  });

  it('is whole with a skip-all plan', async () => {
    expect(await eventsOf(tapFile('TAP version 13\n1..0 # SKIP no database\n'))).toEqual([]);
  });
});

describe('what is not TAP', () => {
  async function readError(content: string): Promise<ReportReadError> {
    const error = await eventsOf(tapFile(content)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ReportReadError);
    return error as ReportReadError;
  }

  it('refuses an empty file and one without a TAP line', async () => {
    expect(await readError('')).toMatchObject({
      code: 'TAP_EMPTY',
      message: 'reports/unit.tap: the file is empty.',
    });
    expect(await readError('{"results":{}}\n')).toMatchObject({
      code: 'TAP_NOT_TAP',
      message:
        'reports/unit.tap: not a TAP report: it has no TAP version, plan or test point. Give testrun upload JUnit XML, CTRF JSON or TAP reports.',
    });
  });
});

// Bounds (docs/tap.md#limits): what a stream may hold is read in time linear in its size,
// or refused at once with a line that says why.
describe('limits', () => {
  /** A stream nested `depth` subtests deep, as node-tap writes one, made only as far as it is read. */
  function nested(depth: number, pulled: { bytes: number }): AsyncIterable<Buffer> {
    async function* chunks() {
      let text = 'TAP version 14\n';
      const lines = function* () {
        for (let d = 0; d < depth; d++) yield `${'    '.repeat(d)}# Subtest: level ${d}\n`;
        yield `${'    '.repeat(depth)}ok 1 - deepest\n${'    '.repeat(depth)}1..1\n`;
        for (let d = depth - 1; d >= 0; d--)
          yield `${'    '.repeat(d)}ok 1 - level ${d}\n${'    '.repeat(d)}1..1\n`;
      };
      for (const line of lines()) {
        text += line;
        if (text.length < 65_536) continue;
        pulled.bytes += text.length;
        yield Buffer.from(text);
        text = '';
      }
      pulled.bytes += text.length;
      yield Buffer.from(text);
    }
    return chunks();
  }

  async function eventsOfChunks(chunks: AsyncIterable<Buffer>): Promise<TapEvent[]> {
    const events: TapEvent[] = [];
    for await (const some of readTap(chunks, 'reports/deep.tap')) events.push(...some);
    return events;
  }

  // 10,000 levels are 400 MB of indentation; read as tap-parser reads them, more than two minutes.
  it('refuses subtests nested 10,000 deep at the first line past 100 levels, reading no further', {
    timeout: 60_000,
  }, async () => {
    const pulled = { bytes: 0 };
    const error = await eventsOfChunks(nested(10_000, pulled)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ReportReadError);
    expect(error).toMatchObject({
      code: 'TAP_TOO_DEEP',
      line: 103,
      message:
        'reports/deep.tap:103: its subtests nest more than 100 levels deep; testrun upload reads TAP nested up to 100 levels (a level per test file, describe or t.test). Write the report with fewer levels, or split it.',
    });
    expect(pulled.bytes).toBeLessThan(200_000);
  });

  it(`reads subtests nested ${MAX_TAP_DEPTH} deep`, async () => {
    const events = await eventsOfChunks(nested(MAX_TAP_DEPTH - 1, { bytes: 0 }));
    expect(events).toEqual([
      {
        kind: 'point',
        point: expect.objectContaining({
          titles: [...Array.from({ length: 99 }, (_, d) => `level ${d}`), 'deepest'],
        }),
      },
    ]);
  });

  it('reads a line longer than 1 Mi characters as its start, and says how many there were', async () => {
    const name = `${'n'.repeat(MAX_TAP_LINE)}never read`;
    const output = 'o'.repeat(3 * MAX_TAP_LINE);
    const events = await eventsOf(tapFile(`TAP version 13\nok 1 - ${name}\n${output}\nok 2 - after\n1..2\n`));
    const points = events.flatMap((event) => (event.kind === 'point' ? [event.point.titles.at(-1)] : []));
    expect(points).toEqual([name.slice(0, MAX_TAP_LINE - 'ok 1 - '.length), 'after']);
    expect(events.at(-1)).toEqual({ kind: 'long-lines', count: 2, firstLine: 2 });
  });

  it('answers a stream of one endless line (a writer that never wrote a newline) without holding it', {
    timeout: 60_000,
  }, async () => {
    async function* endless() {
      yield Buffer.from('TAP version 13\nok 1 - ');
      for (let i = 0; i < 800; i++) yield Buffer.alloc(65_536, 'x');
    }
    const events = await eventsOfChunks(endless());
    expect(events.filter((event) => event.kind === 'point')).toHaveLength(1);
    expect(events).toContainEqual({ kind: 'long-lines', count: 1, firstLine: 2 });
  });

  it('drops a YAML diagnostics block longer than 4 Mi characters, keeping its point, its duration and every other block', async () => {
    const output = Array.from(
      { length: MAX_TAP_DIAGNOSTICS / 1000 + 1 },
      () => `    ${'o'.repeat(995)}\n`,
    ).join('');
    const events = await eventsOf(
      tapFile(
        `TAP version 13\nnot ok 1 - huge\n  ---\n  duration_ms: 12.5\n  stdout: |-\n${output}  ...\nnot ok 2 - small\n  ---\n  message: expected 1\n  ...\n1..2\n`,
      ),
    );
    const points = events.flatMap((event) => (event.kind === 'point' ? [event.point] : []));
    expect(points.map(({ titles, time, diag, ok }) => ({ titles, time, diag, ok }))).toEqual([
      { titles: ['huge'], time: 12.5, diag: {}, ok: false },
      { titles: ['small'], time: null, diag: { message: 'expected 1' }, ok: false },
    ]);
    expect(events.at(-1)).toEqual({ kind: 'long-diagnostics', count: 1, firstLine: 3 });
  });

  it('answers a YAML block that never ends (a writer stopped mid-block) without holding it', {
    timeout: 60_000,
  }, async () => {
    async function* neverEnding() {
      yield Buffer.from('TAP version 13\nnot ok 1 - stopped\n  ---\n  stack: |-\n');
      const line = `    ${'x'.repeat(65_530)}\n`;
      for (let i = 0; i < 800; i++) yield Buffer.from(line);
    }
    const events = await eventsOfChunks(neverEnding());
    expect(events.filter((event) => event.kind === 'point')).toHaveLength(1);
    expect(events).toContainEqual({ kind: 'long-diagnostics', count: 1, firstLine: 3 });
  });

  it('reads a YAML block just under the bound whole', async () => {
    const line = 'x'.repeat(995);
    const lines = Math.floor(MAX_TAP_DIAGNOSTICS / 1000) - 2;
    const block = Array.from({ length: lines }, () => `    ${line}\n`).join('');
    const events = await eventsOf(
      tapFile(`TAP version 13\nnot ok 1 - big\n  ---\n  stack: |-\n${block}  ...\n1..1\n`),
    );
    const [point] = events.flatMap((event) => (event.kind === 'point' ? [event.point] : []));
    // Compared by length: a failure would print 4 MB.
    expect(events).toHaveLength(1);
    expect((point?.diag as { stack?: string } | undefined)?.stack?.length).toBe(lines * 996 - 1);
  });
});
