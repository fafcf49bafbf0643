import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { optionsTableRows } from '../../src/options/option-specs.js';

// The options table of docs/options.md is written from OPTION_SPECS; this holds the two together.
const PAGE = new URL('../../../../docs/options.md', import.meta.url);

/** The cells of each row of the options table, header and rule left out. */
function pageRows(): string[][] {
  const text = fs.readFileSync(PAGE, 'utf8');
  const table = text.slice(text.indexOf('| Option')).split('\n\n')[0]!;
  return table
    .split('\n')
    .slice(2)
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe("docs/options.md's options table", () => {
  it('lists every option, in order, with the environment variable, default and meaning of its spec', () => {
    // On a difference, `pnpm docs:options` writes the table anew from OPTION_SPECS.
    expect(pageRows()).toEqual(optionsTableRows());
  });
});
