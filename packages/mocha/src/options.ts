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
 * Mocha hands every reporter one bag of options: `--reporter-option k=v` on the command
 * line, `reporter-option: ['k=v']` in .mocharc (Mocha keeps nothing else there), an object
 * from Mocha's API or from createReporter. testrun's options are the names it knows;
 * `reporter` names the reporter whose output is kept; every other name belongs to that
 * reporter (xunit's `output`, say), which gets Mocha's options unchanged. A value given as
 * text is read by its option's kind: a number, true or false, tags as `a,b`, a statusMap
 * as JSON.
 */
export function splitOptions(...bags: unknown[]): SplitOptions {
  const testrun: Record<string, unknown> = {};
  let wrapped = DEFAULT_WRAPPED_REPORTER;
  for (const options of bags) {
    if (!options || typeof options !== 'object') continue;
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
      return /^-?\d+$/.test(text) ? Number(text) : value;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : value;
    case 'tags':
      return text.startsWith('[')
        ? parsedOr(text, value)
        : text
            .split(',')
            .map((tag) => tag.trim())
            .filter((tag) => tag !== '');
    case 'statusMap':
      return parsedOr(text, value);
    default:
      return value;
  }
}

/** JSON's value, or the text itself for core to name as invalid. */
function parsedOr(text: string, value: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}
