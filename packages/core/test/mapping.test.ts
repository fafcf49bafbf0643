import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toTestCase, toTestSuite } from '../src/mapping.js';

describe('toTestSuite', () => {
  it('is the file path relative to the root with / separators', () => {
    const root = path.resolve('/repo');
    expect(toTestSuite(root, path.join(root, 'src', 'cart.test.ts'))).toBe('src/cart.test.ts');
  });

  it('keeps a file outside the root absolute rather than climbing with ..', () => {
    const root = path.resolve('/repo/app');
    expect(toTestSuite(root, path.resolve('/elsewhere/x.test.ts'))).toBe(
      path.resolve('/elsewhere/x.test.ts'),
    );
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
