import { describe, expect, it } from 'vitest';
import { isOlderThanSupported } from '../src/jest-version.js';

// The check itself runs against a real Jest 24 in compat/unsupported-jest.test.ts.
describe('isOlderThanSupported', () => {
  it('is true for every Jest before 29.7', () => {
    expect(['24.9.0', '27.5.1', '28.1.3', '29.0.0', '29.6.4'].filter(isOlderThanSupported)).toHaveLength(5);
  });

  it('is false for 29.7 and later, pre-releases and future majors included', () => {
    expect(['29.7.0', '30.0.0-alpha.6', '30.5.2', '31.0.0'].filter(isOlderThanSupported)).toEqual([]);
  });

  it('gives a version it cannot read the benefit of the doubt', () => {
    expect(isOlderThanSupported('unknown')).toBe(false);
  });
});
