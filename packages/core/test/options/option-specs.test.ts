import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { optionsTableRows } from '../../src/options/option-specs.js';

// The README's options table is written from OPTION_SPECS; this holds the two together.
const README = new URL('../../../../README.md', import.meta.url);

/** The cells of each row of the table under "## Options", header and rule left out. */
function readmeRows(): string[][] {
  const text = fs.readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('## Options'));
  const table = section.slice(section.indexOf('| Option')).split('\n\n')[0]!;
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

describe("the README's options table", () => {
  it('lists every option, in order, with the environment variable, default and meaning of its spec', () => {
    // On a difference, `pnpm docs:options` writes the table anew from OPTION_SPECS.
    expect(readmeRows()).toEqual(optionsTableRows());
  });
});
