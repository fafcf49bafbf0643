import { describe, expect, it } from 'vitest';
import { splitOptions } from '../src/options.js';

describe('splitOptions', () => {
  it('reads the text Mocha passes by each option kind, and takes reporter for the wrapped reporter', () => {
    expect(
      splitOptions({
        reporter: 'dot',
        flushTimeout: '2000',
        requestTimeout: '-1',
        debug: 'true',
        tags: 'nightly',
        statusMap: '{"todo":"todo"}',
        project: 'api',
      }),
    ).toEqual({
      wrapped: 'dot',
      misspelt: [],
      testrun: {
        flushTimeout: 2000,
        requestTimeout: -1,
        debug: true,
        tags: ['nightly'],
        statusMap: { todo: 'todo' },
        project: 'api',
      },
    });
  });

  it('reads booleans as every option written as text is read: 1, yes and on too', () => {
    expect(splitOptions({ debug: 'yes', failOnError: '1', ciTags: 'off', watch: true }).testrun).toEqual({
      debug: true,
      failOnError: true,
      ciTags: false,
      watch: true,
    });
  });

  it("leaves names testrun does not know to the wrapped reporter, and text it cannot read for core's message", () => {
    expect(splitOptions({ output: 'report.xml', batchSize: 'lots', statusMap: '{todo' })).toEqual({
      wrapped: 'spec',
      misspelt: [],
      testrun: { batchSize: 'lots', statusMap: '{todo' },
    });
  });

  it('names the unknown names close to a testrun option as misspelt, once, and keeps them from testrun', () => {
    expect(
      splitOptions({ projct: 'code' }, { projct: 'typo', flushTimout: '5', output: 'report.xml' }),
    ).toEqual({ wrapped: 'spec', misspelt: ['projct', 'flushTimout'], testrun: {} });
  });

  it('lets later bags win: Mocha options over createReporter options', () => {
    const mapResult = () => null;
    expect(splitOptions({ project: 'code', mapResult }, { project: 'cli' })).toEqual({
      wrapped: 'spec',
      misspelt: [],
      testrun: { project: 'cli', mapResult },
    });
  });
});
