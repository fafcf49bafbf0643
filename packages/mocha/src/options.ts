import { OPTION_SPECS, type TestrunOptions } from '@testrun/core';

/** The reporter Mocha's console output comes from, unless the `reporter` option names another. */
export const DEFAULT_WRAPPED_REPORTER = 'spec';

export interface SplitOptions {
  /** testrun's own options, for core to check. */
  testrun: Record<string, unknown>;
  /** The reporter that writes Mocha's console output (`reporter`), `spec` by default. */
  wrapped: string;
}

/**
 * Mocha hands every reporter one bag of options (`--reporter-option k=v`, `reporterOptions`
 * in .mocharc). testrun's options are the names it knows; `reporter` names the reporter whose
 * output is kept; every other name belongs to that reporter (xunit's `output`, say), which
 * gets Mocha's options unchanged. From the command line every value is a string: a number,
 * a boolean or a tag list is read from its text as its environment variable would be.
 */
export function splitOptions(options: unknown): SplitOptions {
  const testrun: Record<string, unknown> = {};
  let wrapped = DEFAULT_WRAPPED_REPORTER;
  if (options && typeof options === 'object') {
    for (const [name, value] of Object.entries(options)) {
      if (name === 'reporter') {
        if (typeof value === 'string' && value.trim() !== '') wrapped = value.trim();
      } else if (Object.hasOwn(OPTION_SPECS, name)) {
        testrun[name] = fromText(name as keyof TestrunOptions, value);
      }
    }
  }
  return { testrun, wrapped };
}

function fromText(name: keyof TestrunOptions, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  switch (OPTION_SPECS[name].kind) {
    case 'integer':
      return /^\d+$/.test(text) ? Number(text) : value;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : value;
    case 'tags':
      return text
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== '');
    default:
      return value;
  }
}
