import path from 'node:path';

// The framework a `testrun run` names its run with, when --framework does not say: the first
// word of the command that names a runner, else the program's own name. Only a label on the
// run (create-run needs one); the reporters inside send their results whatever it says.

/** A command word → the framework's name, as the reporters name themselves. */
const RUNNERS: Record<string, string> = {
  vitest: 'vitest',
  jest: 'jest',
  playwright: 'playwright',
  mocha: 'mocha',
  'cucumber-js': 'cucumber',
  jasmine: 'jasmine',
  wdio: 'webdriverio',
  testcafe: 'testcafe',
  newman: 'newman',
  pytest: 'pytest',
  cypress: 'cypress',
  ava: 'ava',
  tap: 'tap',
  '@playwright': 'playwright',
};

/** Programs that start the command rather than being it: their next word is looked at. */
const LAUNCHERS = new Set([
  'npx',
  'pnpm',
  'yarn',
  'npm',
  'bunx',
  'exec',
  'run',
  'env',
  'dlx',
  'sh',
  'bash',
  'zsh',
]);

export function frameworkOf(command: readonly string[]): string {
  // `sh -c 'pytest …; testrun upload …'` holds the command in one argument.
  const words = command.flatMap((arg) => arg.split(/\s+/)).filter(Boolean);
  const names = words.map((word) => path.basename(word).replace(/\.(c|m)?js$/, ''));
  if (names.some((name, index) => name === 'node' && words.slice(index + 1).includes('--test')))
    return 'node-test';
  const runner = names.find((name) => Object.hasOwn(RUNNERS, name));
  if (runner) return RUNNERS[runner]!;
  // A runner's script by its path: node_modules/@playwright/test/cli.js.
  const segment = words.flatMap((word) => word.split('/')).find((part) => Object.hasOwn(RUNNERS, part));
  if (segment) return RUNNERS[segment]!;
  // Else the program, past the launchers: a word of a script (`sh -c '…'`) says little.
  const program = command.find(
    (arg) => !/\s/.test(arg) && !arg.startsWith('-') && !LAUNCHERS.has(path.basename(arg)),
  );
  return program === undefined ? 'command' : path.basename(program);
}
