import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docBlock } from '../../../test/doc-blocks.js';
import { commands } from '../src/commands/index.js';
import { synopsisOf } from '../src/flags.js';

// The README lists the commands and, for each, a synopsis with every flag: written from the
// declarations, which this holds it to. On a difference, the expected text is what to paste.
const README = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The text of the README's section `## testrun <name>`, up to the next section. */
function section(name: string): string {
  const start = README.indexOf(`\n## testrun ${name}\n`);
  expect(start, `README.md has no section "## testrun ${name}"`).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end);
}

/** Each command's synopsis block, by the name its `<!-- tested: … -->` marker gives it. */
const SYNOPSIS_BLOCKS: Record<string, string> = {
  run: 'cli-readme-run-synopsis',
  summary: 'cli-readme-summary-synopsis',
  quarantine: 'cli-readme-quarantine-synopsis',
  serve: 'cli-readme-serve-synopsis',
  'create-run': 'cli-readme-create-run-synopsis',
  'complete-run': 'cli-readme-complete-run-synopsis',
  replay: 'cli-readme-replay-synopsis',
  plan: 'cli-readme-plan-synopsis',
  upload: 'cli-readme-upload-synopsis',
};

describe('the README of @testrun/cli', () => {
  it('lists every command with its summary', () => {
    const listed = docBlock('cli-readme-commands')
      .split('\n')
      .filter((line) => line.startsWith('  '));
    expect(listed).toEqual(
      Object.entries(commands).map(([name, { summary }]) => `  ${name.padEnd(12)} ${summary}`),
    );
  });

  it.each(Object.keys(commands))('shows every flag of %s in its synopsis', async (name) => {
    const command = await commands[name]!.load();
    const block = SYNOPSIS_BLOCKS[name];
    expect(block, `SYNOPSIS_BLOCKS names no block for ${name}`).toBeDefined();
    expect(section(name)).toContain(`<!-- tested: ${block} -->`);
    expect(docBlock(block!).trimEnd()).toBe(synopsisOf(command));
  });

  it.each(Object.keys(commands))('names no flag in the section of %s that it does not take', async (name) => {
    const command = await commands[name]!.load();
    const named = new Set(section(name).match(/(?<![\w-])--[a-z][a-z-]*/g));
    const taken = new Set([...Object.keys(command.flags), 'help'].map((flag) => `--${flag}`));
    expect([...named].filter((flag) => !taken.has(flag))).toEqual([]);
  });
});
