import { tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/options/config.js';
import { nearestName, unknownOptionMessage } from '../../src/options/option-names.js';
import { OPTION_NAMES } from '../../src/options/option-specs.js';
import { optionFromText } from '../../src/options/option-text.js';

// Every option written as text (environment, Mocha's reporter options, the CLI's flags) is
// read by optionFromText; what it cannot read is named by the option's check in resolveConfig.

const rootDir = tempDir('testrun-option-text-');
const keyEnv = { TESTRUN_API_KEY: 'k-123456', TESTRUN_BASE_URL: 'https://svc.example.com' };

/** The messages resolveConfig gives for these variables. */
function envProblems(env: Record<string, string>): string[] {
  const resolution = resolveConfig({ options: {}, env: { ...keyEnv, ...env }, rootDir });
  return resolution.state === 'invalid' ? resolution.errors.map((error) => error.message) : [];
}

/** The messages resolveConfig gives for these options, each written as text. */
function textProblems(texts: Record<string, string>): string[] {
  const options = Object.fromEntries(
    Object.entries(texts).map(([name, text]) => [name, optionFromText(name as 'debug', text)]),
  );
  const resolution = resolveConfig({ options, env: keyEnv, rootDir });
  return resolution.state === 'invalid' ? resolution.errors.map((error) => error.message) : [];
}

describe('optionFromText', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    [' 1 ', true],
    ['yes', true],
    ['On', true],
    ['false', false],
    ['0', false],
    ['no', false],
    ['OFF', false],
  ])('reads boolean text %j as %s', (text, value) => {
    expect(optionFromText('debug', text)).toBe(value);
  });

  it('reads whole numbers, signs included, for the check to hold to its range', () => {
    expect(optionFromText('flushTimeout', '2000')).toBe(2000);
    expect(optionFromText('flushTimeout', ' +5 ')).toBe(5);
    expect(optionFromText('flushInterval', '-1')).toBe(-1);
  });

  it('splits tags at commas, trimmed, empty ones left out, or reads a JSON array', () => {
    expect(optionFromText('tags', ' nightly, smoke,,')).toEqual(['nightly', 'smoke']);
    expect(optionFromText('tags', '')).toEqual([]);
    expect(optionFromText('tags', '["a,b", "c"]')).toEqual(['a,b', 'c']);
  });

  it('reads a statusMap as JSON and trims strings and choices', () => {
    expect(optionFromText('statusMap', '{"todo":"pending"}')).toEqual({ todo: 'pending' });
    expect(optionFromText('project', '  api ')).toBe('api');
    expect(optionFromText('durationUnit', 's ')).toBe('s');
  });

  it.each([
    ['debug', 'maybe'],
    ['batchSize', 'lots'],
    ['batchSize', '1.5'],
    ['batchSize', '1e3'],
    ['tags', '[nightly'],
    ['statusMap', '{todo'],
    ['mapResult', 'rename'],
  ] as const)('leaves %s text %j as it is, for the check to name', (name, text) => {
    expect(optionFromText(name, text)).toBe(text);
  });
});

describe('text that is no value of its option', () => {
  it('is named by its variable with the forms a boolean is read from', () => {
    expect(envProblems({ TESTRUN_DEBUG: 'maybe' })).toEqual([
      'option TESTRUN_DEBUG must be true or false (or 1/0, yes/no, on/off), got "maybe".',
    ]);
  });

  it('reads every boolean variable the same way', () => {
    for (const [text, debug] of [
      ['yes', true],
      ['off', false],
    ] as const) {
      const resolution = resolveConfig({ options: {}, env: { ...keyEnv, TESTRUN_DEBUG: text }, rootDir });
      expect(resolution.state === 'enabled' && resolution.config.debug).toBe(debug);
    }
    expect(resolveConfig({ options: {}, env: { ...keyEnv, TESTRUN_ENABLED: 'no' }, rootDir })).toEqual({
      state: 'off',
    });
  });

  it('takes tags from the environment as a JSON array too', () => {
    const resolution = resolveConfig({ options: {}, env: { ...keyEnv, TESTRUN_TAGS: '["a,b"]' }, rootDir });
    expect(resolution.state === 'enabled' && resolution.config.tags).toEqual(['a,b']);
    expect(envProblems({ TESTRUN_TAGS: '[a' })).toEqual([
      'option TESTRUN_TAGS must be an array of strings, e.g. ["nightly"], got "[a".',
    ]);
  });

  it('is named by its option with the form expected, whole numbers held to their range', () => {
    expect(
      textProblems({ batchSize: 'lots', concurrency: '65', statusMap: '{todo', durationUnit: 'min' }),
    ).toEqual([
      'option batchSize must be a whole number from 1 to 10000, got "lots".',
      'option concurrency must be a whole number from 1 to 64, got 65.',
      'option statusMap must be an object mapping passed/failed/skipped/todo to the service\'s status strings, e.g. { todo: "pending" }, got "{todo".',
      'option durationUnit must be "ms" or "s", got "min".',
    ]);
  });

  it('never echoes an API key written as text', () => {
    expect(textProblems({ apiKey: '   ' })).toEqual([
      'option apiKey must be a non-empty string, got string.',
    ]);
  });
});

describe('a name that is no option', () => {
  it('gets the option it most likely means', () => {
    expect(unknownOptionMessage('projct')).toBe('unknown option "projct"; did you mean "project"?');
    expect(unknownOptionMessage('flushTimout')).toBe(
      'unknown option "flushTimout"; did you mean "flushTimeout"?',
    );
    expect(unknownOptionMessage('batchsize')).toContain('did you mean "batchSize"?');
    expect(unknownOptionMessage('tag')).toContain('did you mean "tags"?');
  });

  it('gets the list of options when none is near', () => {
    expect(unknownOptionMessage('colour')).toBe(
      `unknown option "colour". Known options: ${OPTION_NAMES.join(', ')}.`,
    );
  });

  it("is not taken for a short option it shares a letter with: another reporter's options stay theirs", () => {
    expect(nearestName('cdn', OPTION_NAMES)).toBeUndefined();
    expect(nearestName('output', OPTION_NAMES)).toBeUndefined();
    expect(nearestName('suiteName', OPTION_NAMES)).toBeUndefined();
  });
});
