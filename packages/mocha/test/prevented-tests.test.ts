import { describe, expect, it } from 'vitest';
import type { MochaRunnable, MochaSuite } from '../src/mocha-types.js';
import { grepOf, preventedBy } from '../src/prevented-tests.js';

function suite(tests: MochaRunnable[], suites: MochaSuite[] = []): MochaSuite {
  return { tests, suites };
}

describe('preventedBy', () => {
  const ran: MochaRunnable = { title: 'ran', state: 'passed' };
  const next: MochaRunnable = { title: 'next' };
  const nested: MochaRunnable = { title: 'nested' };
  const block = suite([ran, next], [suite([nested])]);

  it('is every test under the hook that has not run, nested blocks included', () => {
    expect(preventedBy({ title: '"before all" hook for "ran"', parent: block })).toEqual([next, nested]);
  });

  it('adds the test an after each hook ran after', () => {
    const hook = { title: '"after each" hook for "ran"', parent: block, ctx: { currentTest: ran } };
    expect(preventedBy(hook)).toEqual([ran, next, nested]);
  });

  it('is nothing for an after all hook', () => {
    expect(preventedBy({ title: '"after all" hook in "block"', parent: block })).toEqual([]);
  });

  it('leaves out the tests --grep leaves out', () => {
    const titled = (title: string): MochaRunnable & { fullTitle(): string } => ({
      title,
      fullTitle: () => title,
    });
    const wanted = titled('wanted');
    const other = titled('other');
    const willRun = grepOf({ _grep: /wanted/, _invert: false });
    expect(preventedBy({ title: '"before all" hook', parent: suite([wanted, other]) }, willRun)).toEqual([
      wanted,
    ]);
  });

  it('calls no Array.prototype method, which a test may have replaced', () => {
    const filter = Array.prototype.filter;
    const map = Array.prototype.map;
    const push = Array.prototype.push;
    try {
      Array.prototype.filter = () => undefined as never;
      Array.prototype.map = () => undefined as never;
      Array.prototype.push = () => Number.NaN;
      const prevented = preventedBy({ title: '"before all" hook', parent: block });
      Array.prototype.filter = filter;
      expect(prevented.length).toBe(2);
    } finally {
      Array.prototype.filter = filter;
      Array.prototype.map = map;
      Array.prototype.push = push;
    }
  });
});
