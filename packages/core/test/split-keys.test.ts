import { describe, expect, it } from 'vitest';
import { halfKeys } from '../src/split-keys.js';

describe('halfKeys', () => {
  it('gives each half a new key of UUID shape', () => {
    const [first, second] = halfKeys('0b7c1a52-6f0e-4d57-9a53-4c0f0e6f9f1e');
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set([first, second, '0b7c1a52-6f0e-4d57-9a53-4c0f0e6f9f1e']).size).toBe(3);
  });

  it('splits the same batch into the same keys every time, so a resumed replay is recognised', () => {
    expect(halfKeys('parent-key')).toEqual(halfKeys('parent-key'));
    expect(halfKeys('parent-key')).not.toEqual(halfKeys('other-key'));
  });
});
