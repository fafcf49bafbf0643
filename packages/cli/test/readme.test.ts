import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
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

/** The first fenced block of `text`, without its fences. */
function firstBlock(text: string): string {
  return text
    .split('```')[1]!
    .replace(/^\w*\n/, '')
    .trimEnd();
}

describe('the README of @testrun/cli', () => {
  it('lists every command with its summary', () => {
    const listed = firstBlock(README)
      .split('\n')
      .filter((line) => line.startsWith('  '));
    expect(listed).toEqual(
      Object.entries(commands).map(([name, { summary }]) => `  ${name.padEnd(12)} ${summary}`),
    );
  });

  it.each(Object.keys(commands))('shows every flag of %s in its synopsis', async (name) => {
    const command = await commands[name]!.load();
    expect(firstBlock(section(name))).toBe(synopsisOf(command));
  });

  it.each(Object.keys(commands))('names no flag in the section of %s that it does not take', async (name) => {
    const command = await commands[name]!.load();
    const named = new Set(section(name).match(/(?<![\w-])--[a-z][a-z-]*/g));
    const taken = new Set([...Object.keys(command.flags), 'help'].map((flag) => `--${flag}`));
    expect([...named].filter((flag) => !taken.has(flag))).toEqual([]);
  });
});
