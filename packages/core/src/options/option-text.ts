import { OPTION_SPECS, type OptionName } from './option-specs.js';

// An option written as text — an environment variable, Mocha's `--reporter-option name=value`,
// a CLI flag — is read here, by its kind in OPTION_SPECS, and nowhere else: so `yes`, `1` and
// `true` mean the same wherever they are written. The value is then checked as any option is
// (config.ts), so a bad value gets the same message whichever way it came.

/** The words a boolean option reads as, in any case. */
const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

/**
 * The value `text` stands for as option `name`: `true`/`false` (also `1`/`0`, `yes`/`no`,
 * `on`/`off`) for a boolean, a number for a whole number, tags split at commas (or a JSON
 * array), a statusMap as JSON, the trimmed text for the rest. Text that does not read as its
 * kind is returned as it is, for the option's check to name with the form it expects.
 */
export function optionFromText(name: OptionName, text: string): unknown {
  const trimmed = text.trim();
  switch (OPTION_SPECS[name].kind) {
    case 'boolean': {
      const word = trimmed.toLowerCase();
      if (TRUE_WORDS.includes(word)) return true;
      if (FALSE_WORDS.includes(word)) return false;
      return text;
    }
    case 'integer':
      return /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : text;
    case 'size':
      // Digits alone are bytes; with a unit, the check reads it (config.ts, sizeInBytes).
      return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
    case 'tags':
      if (trimmed.startsWith('[')) return jsonOr(trimmed, text);
      return trimmed
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== '');
    case 'statusMap':
      return jsonOr(trimmed, text);
    case 'completeRun': {
      if (trimmed.startsWith('{')) return jsonOr(trimmed, text);
      const word = trimmed.toLowerCase();
      if (word === 'auto') return 'auto';
      if (TRUE_WORDS.includes(word)) return true;
      if (FALSE_WORDS.includes(word)) return false;
      return text;
    }
    case 'summary':
      return FALSE_WORDS.includes(trimmed.toLowerCase()) ? false : trimmed;
    case 'function':
      // No text is a function: the check says what is expected.
      return text;
    case 'string':
    case 'secret':
    case 'choice':
      return trimmed;
  }
}

function jsonOr(json: string, text: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return text;
  }
}
