import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUS_MAP } from '../../src/options/option-specs.js';
import { toResult } from '../../src/results/normalize.js';
import {
  cutWithMark,
  EMPTY_NAME,
  MAX_LABEL_LENGTH,
  MAX_NAME_LENGTH,
  toLabel,
  toName,
  toRunErrorCase,
  toTestCase,
  toTestSuite,
  withProjectLabel,
  withVariant,
} from '../../src/results/result-name.js';

describe('toTestSuite', () => {
  const repo = path.resolve('/repo');
  const at = (...parts: string[]) => path.join(repo, ...parts);

  it('is the file path relative to the root with / separators', () => {
    expect(toTestSuite(at('src', 'cart.test.ts'), repo)).toBe('src/cart.test.ts');
  });

  it('names a file from the repository when the config sits in a subfolder and its project root is above it', () => {
    // jest --config scripts/jest/jest.config.js whose project sets rootDir to the repository.
    expect(toTestSuite(at('src', 'a.test.js'), at('scripts', 'jest'), repo)).toBe('src/a.test.js');
  });

  it('keeps two packages apart when their project roots lie outside the root', () => {
    const root = at('scripts', 'jest');
    const a = toTestSuite(at('packages', 'a', 'src', 'index.test.ts'), root, at('packages', 'a'));
    const b = toTestSuite(at('packages', 'b', 'src', 'index.test.ts'), root, at('packages', 'b'));
    expect([a, b]).toEqual(['packages/a/src/index.test.ts', 'packages/b/src/index.test.ts']);
  });

  it('names files of projects inside the root from the root, as a single-project run does', () => {
    expect(toTestSuite(at('packages', 'a', 'x.test.ts'), repo, at('packages', 'a'))).toBe(
      'packages/a/x.test.ts',
    );
  });

  it('never climbs with .. nor turns absolute for a file outside every root', () => {
    const suite = toTestSuite(path.resolve('/repo/shared/x.test.ts'), at('app'));
    expect(suite).toBe('shared/x.test.ts');
  });

  it('is the same wherever the checkout lies', () => {
    const here = toTestSuite(
      '/home/runner/work/r/r/src/a.test.js',
      '/home/runner/work/r/r/scripts/jest',
      '/home/runner/work/r/r',
    );
    const there = toTestSuite('/builds/x/src/a.test.js', '/builds/x/scripts/jest', '/builds/x');
    expect(here).toBe(there);
  });
});

describe('withProjectLabel', () => {
  it('puts the project name in brackets before the suite', () => {
    expect(withProjectLabel('src/a.test.ts', 'node')).toBe('[node] src/a.test.ts');
  });

  it('leaves the suite alone without a project name', () => {
    expect(withProjectLabel('src/a.test.ts', undefined)).toBe('src/a.test.ts');
    expect(withProjectLabel('src/a.test.ts', '')).toBe('src/a.test.ts');
  });
});

describe('withVariant', () => {
  it('puts the variant in parentheses after the suite, and nothing without one', () => {
    expect(withVariant('src/a.test.ts', 'typecheck')).toBe('src/a.test.ts (typecheck)');
    expect(withVariant('src/a.test.ts', undefined)).toBe('src/a.test.ts');
  });
});

describe('toTestCase', () => {
  it('joins the describe chain and the title with " > "', () => {
    expect(toTestCase(['cart', 'totals', 'adds tax'])).toBe('cart > totals > adds tax');
    expect(toTestCase(['top-level test'])).toBe('top-level test');
  });

  it('shows an empty title in the chain as (unnamed)', () => {
    expect(toTestCase(['odd names', ''])).toBe('odd names > (unnamed)');
    expect(toTestCase(['', ' '])).toBe('(unnamed) > (unnamed)');
  });
});

describe('toRunErrorCase', () => {
  it('is (unhandled error) and the first non-empty line of the message', () => {
    expect(toRunErrorCase('\nTypeError: x is not a function\n    at a.js:1:1')).toBe(
      '(unhandled error) TypeError: x is not a function',
    );
  });

  it('is (unhandled error) alone when the message is empty', () => {
    expect(toRunErrorCase('')).toBe('(unhandled error)');
    expect(toRunErrorCase(undefined)).toBe('(unhandled error)');
  });
});

describe('toName', () => {
  it('keeps unicode and emoji as they are', () => {
    expect(toName('größe 🚀 日本語')).toBe('größe 🚀 日本語');
  });

  it('turns NUL, newlines and tabs into spaces', () => {
    expect(toName('a\u0000b\nc\r\nd\te')).toBe('a b c  d e');
  });

  it('turns C1 controls and DEL into spaces as it does C0 ones', () => {
    // U+009B is the one-character CSI: a terminal would take what follows as a command.
    expect(toName('a\u0080b\u009b31mc\u009fd\u007fe')).toBe('a b 31mc d e');
  });

  it('gives empty and blank names a visible placeholder', () => {
    expect(toName('')).toBe(EMPTY_NAME);
    expect(toName('   ')).toBe(EMPTY_NAME);
    expect(toName(undefined)).toBe(EMPTY_NAME);
    expect(toName(null)).toBe(EMPTY_NAME);
  });

  it('cuts a 10 KB name to the limit without splitting an emoji', () => {
    const long = '🚀'.repeat(10_000);
    const name = toName(long);
    expect(Array.from(name)).toHaveLength(MAX_NAME_LENGTH);
    expect(name).toMatch(/^(?:🚀){1006}…#[0-9a-f]{16}$/u);
    expect(name.isWellFormed()).toBe(true);
  });

  it('replaces lone surrogates so the JSON is valid UTF-8', () => {
    expect(toName('a\uD800b').isWellFormed()).toBe(true);
  });

  it('stringifies non-string names', () => {
    expect(toName(42)).toBe('42');
  });

  it('normalizes to NFC so the same title compares equal', () => {
    expect(toName('e\u0301')).toBe('\u00e9');
  });
});

describe('toName on plain ASCII', () => {
  it('returns short printable names unchanged and still cleans the rest', () => {
    expect(toName('cart > adds tax')).toBe('cart > adds tax');
    expect(toName('a'.repeat(MAX_NAME_LENGTH))).toBe('a'.repeat(MAX_NAME_LENGTH));
    expect(Array.from(toName('a'.repeat(MAX_NAME_LENGTH + 1)))).toHaveLength(MAX_NAME_LENGTH);
    expect(toName('a\u007fb')).toBe('a b');
  });
});

/** The mark the rule puts at the end of a cut name, computed here apart from the code under test. */
const markOf = (whole: string) =>
  createHash('sha256').update(Buffer.from(whole, 'utf8')).digest('hex').slice(0, 16);

describe('names too long to keep (docs/naming.md)', () => {
  // node-semver's suite under node-tap: two 1,080-character assertion names that differ only at their end.
  const long = (end: string) => `${'compares '.repeat(122)}${end}`.padEnd(1_100, '.');

  it('keeps two names that differ after the 1,024th character apart', () => {
    const a = `${'r'.repeat(1_099)}a`;
    const b = `${'r'.repeat(1_099)}b`;
    expect(toName(a)).not.toBe(toName(b));
    expect(toName(long('1.2.3'))).not.toBe(toName(long('1.2.4')));
    for (const name of [a, b]) expect(Array.from(toName(name))).toHaveLength(MAX_NAME_LENGTH);
  });

  it('gives the same long name the same cut name every time: its start, …#, and 16 hex digits of its SHA-256', () => {
    const name = 'x'.repeat(2_000);
    // Written out, not computed: a change to the rule changes every long name a service has stored.
    expect(toName(name)).toBe(`${'x'.repeat(1_006)}…#5c0e0ea421571c30`);
    expect(markOf(name)).toBe('5c0e0ea421571c30');
    expect(toName(name)).toBe(toName(`${name}`));
  });

  it('computes the mark on the whole name in UTF-8, as cleaned, and cuts between code points', () => {
    const whole = `suite > ${'🚀'.repeat(1_100)}`;
    const name = toName(whole);
    expect(name).toBe(`suite > ${'🚀'.repeat(998)}…#25bf39a2b8e2afd9`);
    expect(markOf(whole)).toBe('25bf39a2b8e2afd9');
    expect(name.isWellFormed()).toBe(true);
    // The mark is of the name as it is sent: a newline is a space there, so both are one name.
    expect(toName(`${whole}\n`)).toBe(toName(`${whole} `));
    expect(toName(`${whole}\n`).endsWith(markOf(`${whole} `))).toBe(true);
  });

  it('never keeps half a surrogate pair, wherever the cut falls', () => {
    for (const offset of [0, 1]) {
      const text = `${'a'.repeat(offset)}${'😀'.repeat(1_100)}`;
      const name = toName(text);
      expect(name.isWellFormed()).toBe(true);
      expect(Array.from(name)).toHaveLength(MAX_NAME_LENGTH);
      expect(name.endsWith(`…#${markOf(text)}`)).toBe(true);
    }
  });

  it('keeps a name of exactly 1,024 code points whole, astral characters counted once', () => {
    const exactly = '😀'.repeat(MAX_NAME_LENGTH);
    expect(toName(exactly)).toBe(exactly);
    expect(toName(`${exactly}!`)).toMatch(/…#[0-9a-f]{16}$/);
  });

  it('is the same on a name cut already: cutting twice changes nothing', () => {
    const once = toName(long('tail'));
    expect(toName(once)).toBe(once);
    expect(toName(toTestCase(['odd names', long('tail')]))).toBe(toName(`odd names > ${long('tail')}`));
  });

  it('cuts a testCase once, as a whole, so its mark stands for every title', () => {
    const titles = ['describe', long('first'), 'it'];
    const other = ['describe', long('first'), 'it!'];
    expect(toName(toTestCase(titles))).not.toBe(toName(toTestCase(other)));
    expect(toName(toTestCase(titles)).endsWith(markOf(`describe > ${long('first')} > it`))).toBe(true);
  });

  it('applies to testSuite as to testCase', () => {
    const options = { statusMap: DEFAULT_STATUS_MAP, durationUnit: 'ms' as const };
    const suite = (end: string) => `${'deep/'.repeat(220)}${end}.test.ts`;
    const a = toResult({ testSuite: suite('a'), testCase: 'c', status: 'passed' }, options);
    const b = toResult({ testSuite: suite('b'), testCase: 'c', status: 'passed' }, options);
    expect(a.testSuite).not.toBe(b.testSuite);
    expect(a.testSuite.endsWith(`…#${markOf(suite('a'))}`)).toBe(true);
  });

  it('cuts a run label at MAX_LABEL_LENGTH the same way', () => {
    const tag = (end: string) => `branch:${'x'.repeat(600)}${end}`;
    expect(toLabel(tag('a'))).toBe(`${tag('a').slice(0, MAX_LABEL_LENGTH - 18)}…#${markOf(tag('a'))}`);
    expect(toLabel(tag('a'))).not.toBe(toLabel(tag('b')));
    expect(cutWithMark('short', MAX_LABEL_LENGTH)).toBe('short');
  });
});
