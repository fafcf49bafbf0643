import { nearestName, OPTION_SPECS, optionFromText, type TestrunOptions } from '@testrun/core';

/** The reporter Mocha's console output comes from, unless the `reporter` option names another. */
export const DEFAULT_WRAPPED_REPORTER = 'spec';

const OPTION_NAMES = Object.keys(OPTION_SPECS);

export interface SplitOptions {
  /** testrun's own options, for core to check. */
  testrun: Record<string, unknown>;
  /** The reporter that writes Mocha's console output (`reporter`), `spec` by default. */
  wrapped: string;
  /** Names that are not testrun's but close to one of its options: most likely misspelt (`projct`). */
  misspelt: string[];
}

/**
 * Mocha hands every reporter one bag of options: `--reporter-option k=v` on the command
 * line, `reporter-option: ['k=v']` in .mocharc (Mocha keeps nothing else there), an object
 * from Mocha's API or from createReporter. testrun's options are the names it knows;
 * `reporter` names the reporter whose output is kept; every other name belongs to that
 * reporter (xunit's `output`, say), which gets Mocha's options unchanged, so an unknown name
 * cannot be an error here: one close to a testrun option is only `misspelt`. A value given
 * as text is read as core reads every option written as text (optionFromText).
 */
export function splitOptions(...bags: unknown[]): SplitOptions {
  const testrun: Record<string, unknown> = {};
  const misspelt = new Set<string>();
  let wrapped = DEFAULT_WRAPPED_REPORTER;
  for (const options of bags) {
    if (!options || typeof options !== 'object') continue;
    for (const [name, value] of Object.entries(options)) {
      if (name === 'reporter') {
        if (typeof value === 'string' && value.trim() !== '') wrapped = value.trim();
      } else if (Object.hasOwn(OPTION_SPECS, name)) {
        const option = name as keyof TestrunOptions;
        testrun[name] = typeof value === 'string' ? optionFromText(option, value) : value;
      } else if (nearestName(name, OPTION_NAMES)) {
        misspelt.add(name);
      }
    }
  }
  return { testrun, wrapped, misspelt: [...misspelt] };
}
