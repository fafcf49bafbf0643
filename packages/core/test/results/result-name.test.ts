import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_NAME,
  MAX_NAME_LENGTH,
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
    expect(name.endsWith('🚀…')).toBe(true);
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
    expect(toName('a'.repeat(MAX_NAME_LENGTH))).toHaveLength(MAX_NAME_LENGTH);
    expect(Array.from(toName('a'.repeat(MAX_NAME_LENGTH + 1)))).toHaveLength(MAX_NAME_LENGTH);
    expect(toName('a\u007fb')).toBe('a b');
  });
});
