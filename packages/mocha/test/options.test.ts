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

  it("leaves names testrun does not know to the wrapped reporter, and text it cannot read for core's message", () => {
    expect(splitOptions({ output: 'report.xml', batchSize: 'lots', statusMap: '{todo' })).toEqual({
      wrapped: 'spec',
      testrun: { batchSize: 'lots', statusMap: '{todo' },
    });
  });

  it('lets later bags win: Mocha options over createReporter options', () => {
    const mapResult = () => null;
    expect(splitOptions({ project: 'code', mapResult }, { project: 'cli' })).toEqual({
      wrapped: 'spec',
      testrun: { project: 'cli', mapResult },
    });
  });
});
