import { describe, expect, it } from 'vitest';
import { testsAlone } from '../src/reporter.js';

// Whether node:test fails a run for its failed tests alone (quarantine, docs/design/quarantine.md).

describe("node:test's verdict, for quarantine", () => {
  it('is its failed tests alone without coverage thresholds', () => {
    expect(testsAlone(['--test', '--experimental-test-coverage'])).toEqual({ failedByTestsAlone: true });
  });

  it.each([
    ['--test-coverage-lines=90'],
    ['--test-coverage-branches', '80'],
    ['--test-coverage-functions=1'],
  ])('is more with %s, which node:test checks after its reporters', (...flags) => {
    expect(testsAlone(['--test', ...flags])).toEqual({
      failedByTestsAlone: false,
      notTestsAlone: 'coverage thresholds are set, which node:test checks after its reporters',
    });
  });
});
