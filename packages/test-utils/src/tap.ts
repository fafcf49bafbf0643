import fs from 'node:fs';
import path from 'node:path';
import { FIXTURES_DIR } from './fixtures.js';
import { type ExpectedResult, resultsIn } from './parity-expected.js';

/**
 * The TAP writers' fixture: the same tests for node-tap, AVA, `node --test` and tape, each
 * installed from npm as its devDependencies; recorded/<writer>.tap is what each wrote
 * (record.mjs records them again).
 */
export const TAP_FIXTURE = path.join(FIXTURES_DIR, 'tap');

export const TAP_WRITERS = ['node-tap', 'ava', 'node-test', 'tape'] as const;
export type TapWriter = (typeof TAP_WRITERS)[number];

/** The command that makes `writer` write TAP in TAP_FIXTURE (writers.json, which record.mjs reads too): program and arguments. */
export function tapWriterCommand(writer: TapWriter): string[] {
  const commands = JSON.parse(fs.readFileSync(path.join(TAP_FIXTURE, 'writers.json'), 'utf8')) as Record<
    TapWriter,
    string[]
  >;
  const [bin, ...args] = commands[writer];
  return [bin === 'node' ? process.execPath : path.join(TAP_FIXTURE, 'node_modules', '.bin', bin!), ...args];
}

/** What `writer` wrote for TAP_FIXTURE's tests, as recorded. */
export function recordedTap(writer: TapWriter): string {
  return path.join(TAP_FIXTURE, 'recorded', `${writer}.tap`);
}

/**
 * What `testrun upload` stores for each writer's stream (docs/tap.md): node-tap names each test
 * file's subtest, so its results are that file's; the others name no file, so theirs are
 * results of `suite` (`--suite`, else the report's name). Statuses as core names them: `todo`
 * is sent as `skipped` unless `statusMap` says otherwise.
 */
export function tapWriterResults(writer: TapWriter, suite: string): ExpectedResult[] {
  switch (writer) {
    case 'node-tap':
      // As node-tap counts them: { total: 7, pass: 4, fail: 1, todo: 1, skip: 1 }.
      return [
        ...resultsIn('node-tap/cart.test.js', [
          ['cart > adds an item > counts one more', 'passed'],
          ['cart > adds an item > shows it', 'passed'],
          ['cart > applies a coupon > takes 20% off', 'failed'],
          ['cart > ships abroad', 'skipped'],
          ['cart > pays later', 'todo'],
          ['empties itself > holds nothing', 'passed'],
        ]),
        ...resultsIn('node-tap/search.test.js', [['search > finds a product > finds it', 'passed']]),
      ];
    case 'ava':
      // AVA puts the file's name before a test's title when it runs several files.
      return resultsIn(suite, [
        ['cart › adds an item', 'passed'],
        ['cart › applies a coupon', 'failed'],
        ['cart › ships abroad', 'skipped'],
        ['cart › pays later', 'todo'],
        ['cart › empties itself', 'passed'],
        ['search › finds a product', 'passed'],
      ]);
    case 'node-test':
      // As node --test counts them: tests 6, pass 3, fail 1, skipped 1, todo 1.
      return resultsIn(suite, [
        ['cart > adds an item', 'passed'],
        ['cart > applies a coupon', 'failed'],
        ['cart > ships abroad', 'skipped'],
        ['cart > pays later', 'todo'],
        ['empties itself', 'passed'],
        ['search > finds a product', 'passed'],
      ]);
    case 'tape':
      // tape names each test in a comment; its assertions are the test points.
      return resultsIn(suite, [
        ['cart adds an item > counts one more', 'passed'],
        ['cart adds an item > shows it', 'passed'],
        ['cart applies a coupon > takes 20% off', 'failed'],
        ['cart ships abroad', 'skipped'],
        ['cart pays later > not written', 'todo'],
        ['empties itself > holds nothing', 'passed'],
        ['search finds a product > finds it', 'passed'],
      ]);
  }
}
