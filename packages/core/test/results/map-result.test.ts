import { describe, expect, it, onTestFinished } from 'vitest';
import { createResultMapper, type ResultMapperOptions } from '../../src/results/map-result.js';
import type { RawResult, TestrunOptions } from '../../src/types.js';

// The last step of every result: cleaned, then through the user's mapResult, whose answer
// is checked rather than trusted.

function mapper(mapResult: TestrunOptions['mapResult'], options: Partial<ResultMapperOptions> = {}) {
  const lines: string[] = [];
  const map = createResultMapper({
    statusMap: { passed: 'passed', failed: 'failed', skipped: 'skipped', todo: 'skipped' },
    durationUnit: 'ms',
    mapResult,
    framework: 'vitest',
    log: (line) => lines.push(line),
    ...options,
  });
  return { map, lines };
}

const cases = (count: number): RawResult[] =>
  Array.from({ length: count }, (_, i) => ({
    testSuite: 'suite.test.ts',
    testCase: `case ${i}`,
    status: 'passed',
    duration: i,
  }));

describe('mapResult', () => {
  it('renames and drops results', () => {
    const { map } = mapper((result) =>
      result.testCase === 'case 1' ? null : { ...result, testCase: `[web] ${result.testCase}` },
    );
    expect(cases(3).map((raw) => map(raw, {})?.testCase ?? null)).toEqual([
      '[web] case 0',
      null,
      '[web] case 2',
    ]);
  });

  it('drops a result it answers undefined for', () => {
    const { map } = mapper(() => undefined);
    expect(map(cases(1)[0]!, {})).toBeNull();
  });

  it('gets the result already cleaned, in the configured status words and unit', () => {
    const seen: unknown[] = [];
    const { map } = mapper(
      (result) => {
        seen.push(result);
        return result;
      },
      { durationUnit: 's', statusMap: { passed: 'ok', failed: 'ko', skipped: 'skip', todo: 'skip' } },
    );
    map({ testSuite: 'a\u0000b', testCase: '', status: 'todo', duration: 1500 }, {});
    expect(seen).toEqual([{ testSuite: 'a b', testCase: '(unnamed)', status: 'skip', duration: 1.5 }]);
  });

  it('has what it returns cleaned like our names; an empty status keeps ours; a duration is cleaned, not converted', () => {
    const { map } = mapper(
      (result) => ({
        ...result,
        testCase: 'line\nbreak',
        status: '',
        duration: result.testCase === 'case 1' ? 2.5 : -1,
      }),
      { durationUnit: 's' },
    );
    expect(cases(2).map((raw) => map(raw, {}))).toEqual([
      { testSuite: 'suite.test.ts', testCase: 'line break', status: 'passed', duration: 0 },
      { testSuite: 'suite.test.ts', testCase: 'line break', status: 'passed', duration: 2.5 },
    ]);
  });

  it('keeps our status for one no service can store, and sends an implausible duration as 0', () => {
    const { map } = mapper((result) => ({ ...result, status: 'pass\u0000ed', duration: 1e308 }));
    expect(cases(1).map((raw) => map(raw, {}))).toEqual([
      { testSuite: 'suite.test.ts', testCase: 'case 0', status: 'passed', duration: 0 },
    ]);
  });

  it('is given where the result came from and the framework', () => {
    const infos: unknown[] = [];
    const { map } = mapper((result, info) => {
      infos.push(info);
      return result;
    });
    map(cases(1)[0]!, { file: '/repo/a.test.ts', project: 'node' });
    map(cases(1)[0]!, {});
    expect(infos).toEqual([
      { file: '/repo/a.test.ts', project: 'node', framework: 'vitest' },
      { framework: 'vitest' },
    ]);
  });

  it('that throws leaves each result unchanged, with a line naming the error each time', () => {
    const { map, lines } = mapper(() => {
      throw new Error('boom');
    });
    expect(cases(2).map((raw) => map(raw, {})?.testCase)).toEqual(['case 0', 'case 1']);
    expect(lines).toEqual([
      'mapResult threw (boom); the result is sent unchanged.',
      'mapResult threw (boom); the result is sent unchanged.',
    ]);
  });

  it('that is async is refused with one line, each result sent unchanged and its rejection handled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    onTestFinished(() => {
      process.off('unhandledRejection', onUnhandled);
    });
    // Not allowed by the type, but a JavaScript config can pass it.
    const { map, lines } = mapper((async (result: { testCase: string }) => {
      if (result.testCase === 'case 2') throw new Error('rejected');
      return { ...result, testCase: 'renamed' };
    }) as never);
    expect(cases(3).map((raw) => map(raw, {}))).toEqual(
      cases(3).map(({ testCase }, i) => ({
        testSuite: 'suite.test.ts',
        testCase,
        status: 'passed',
        duration: i,
      })),
    );
    expect(lines).toEqual([
      'mapResult returned a Promise; it must return the result itself (not an async function). Results are sent unchanged.',
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
});
