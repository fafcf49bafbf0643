import { describe, expect, it } from 'vitest';
import { isOlderThanSupported } from '../src/jest-version.js';

// Installing an old Jest in this workspace hoists its packages where pnpm's shims make the
// repo's own Jest find them, so the check is tested here, and was tried by hand with Jest
// 24.9, 25.5, 27.5 and 28.1 (one line, no report, the tests ran, exit code unchanged).
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
