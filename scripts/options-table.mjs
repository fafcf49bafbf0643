// `pnpm docs:options`: writes the options table of docs/options.md anew from OPTION_SPECS
// (packages/core/src/options/option-specs.ts), which a test holds the page to.
import fs from 'node:fs';
import { optionsTableRows } from '../packages/core/dist/options/option-specs.js';

const page = new URL('../docs/options.md', import.meta.url);
const text = fs.readFileSync(page, 'utf8');
const start = text.indexOf('| Option');
const end = text.indexOf('\n\n', start);
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = [
  row(['Option', 'Env', 'Default', 'Meaning']),
  row(['---', '---', '---', '---']),
  ...optionsTableRows().map(row),
];
fs.writeFileSync(page, text.slice(0, start) + table.join('\n') + text.slice(end));
console.log(`docs/options.md: ${optionsTableRows().length} options`);
