// `pnpm docs:options`: writes the README's options table anew from OPTION_SPECS
// (packages/core/src/option-specs.ts), which a test holds the README to.
import fs from 'node:fs';
import { optionsTableRows } from '../packages/core/dist/option-specs.js';

const readme = new URL('../README.md', import.meta.url);
const text = fs.readFileSync(readme, 'utf8');
const start = text.indexOf('| Option', text.indexOf('## Options'));
const end = text.indexOf('\n\n', start);
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = [
  row(['Option', 'Env', 'Default', 'Meaning']),
  row(['---', '---', '---', '---']),
  ...optionsTableRows().map(row),
];
fs.writeFileSync(readme, text.slice(0, start) + table.join('\n') + text.slice(end));
console.log(`README.md: ${optionsTableRows().length} options`);
