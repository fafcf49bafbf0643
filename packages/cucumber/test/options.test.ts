import { describe, expect, it } from 'vitest';
import { hintsFromArgv, splitOptions } from '../src/options.js';

describe('splitOptions', () => {
  it('reads testrun’s options under formatOptions.testrun, over the ones given in code', () => {
    const formatOptions = { colorsEnabled: false, testrun: { project: 'web', tags: ['nightly'] } };
    expect(splitOptions({ project: 'code', debug: true }, formatOptions)).toEqual({
      testrun: { project: 'web', tags: ['nightly'], debug: true },
      formatter: 'progress',
    });
  });

  it('takes `formatter` out: it names the console formatter, no option of core’s', () => {
    expect(splitOptions({}, { testrun: { formatter: ' summary ', project: 'web' } })).toEqual({
      testrun: { project: 'web' },
      formatter: 'summary',
    });
  });

  it('passes unknown names on, for core to report (every other formatter’s options live elsewhere)', () => {
    expect(splitOptions({}, { testrun: { projct: 'web' } }).testrun).toEqual({ projct: 'web' });
  });

  it('reads formatOptions that are missing or not an object as none', () => {
    expect(splitOptions({}, undefined)).toEqual({ testrun: {}, formatter: 'progress' });
    expect(splitOptions({}, { testrun: 'web' })).toEqual({ testrun: {}, formatter: 'progress' });
  });
});

describe('hintsFromArgv', () => {
  it('reads --dry-run, -d, --strict and --no-strict, the last of the two winning', () => {
    expect(hintsFromArgv(['-d', '--strict', '--no-strict'])).toEqual({ dryRun: true, strict: false });
    expect(hintsFromArgv(['--dry-run'])).toEqual({ dryRun: true });
  });

  it('says nothing it was not told, and nothing after --', () => {
    expect(hintsFromArgv(['features', '--tags', '@smoke', '--', '-d'])).toEqual({});
  });
});
