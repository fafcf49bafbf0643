import fs from 'node:fs';
import path from 'node:path';

// Whether `testrun run`'s command is one test runner, and nothing else (docs/design/quarantine.md).
// Only then is the command's exit code the runner's: `sh -c 'vitest run; eslint .'` exits with
// eslint's code, which no reporter knows of, and `vitest run && eslint .` never ran eslint. So
// testrun run passes a command whose failures were all quarantined tests' only when it is one
// runner, started directly or through launchers that pass its exit code on (npx, pnpm exec, an
// npm script of one command with no pre- or post-script, `sh -c` of one command).

/** The programs of the runners testrun has reporters for, as their packages name their bins. */
const RUNNERS = new Set([
  'vitest',
  'jest',
  'playwright',
  'mocha',
  '_mocha',
  'cucumber-js',
  'jasmine',
  'wdio',
  'testcafe',
  'newman',
]);

/** Programs that run the next word as the command, passing its exit code on. */
const LAUNCHERS = new Set(['npx', 'bunx', 'env', 'cross-env', 'dotenv']);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash']);
/** What a shell would read as more than one command, a redirection or a substitution. */
const SHELL_OPERATORS = /[;&|<>`$(){}\n]/;
/** Launchers nest at most this deep (an npm script that runs npx that runs …). */
const MAX_DEPTH = 5;

export type ReadScripts = (dir: string) => Record<string, string> | undefined;

/** Why `command` is not one test runner's, or undefined when it is. */
export function notOneRunner(
  command: readonly string[],
  cwd: string,
  readScripts: ReadScripts = packageScripts,
): string | undefined {
  return check([...command], cwd, readScripts, 0);
}

function check(words: string[], cwd: string, readScripts: ReadScripts, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return 'it starts launchers within launchers';
  // Variables set before the program (`CI=1 vitest run`, as a script writes them).
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
  const [first, ...rest] = words;
  if (first === undefined) return 'it names no program';
  const program = path.basename(first).replace(/\.(c|m)?js$/, '');
  if (RUNNERS.has(program)) return undefined;
  if (program === 'node') return nodeCommand(rest);
  if (LAUNCHERS.has(program)) return check(withoutOptions(rest), cwd, readScripts, depth + 1);
  if (SHELLS.has(program)) return shellCommand(program, rest, cwd, readScripts, depth);
  if (PACKAGE_MANAGERS.has(program)) return packageManagerCommand(program, rest, cwd, readScripts, depth);
  return `${program} is not a test runner testrun reports for`;
}

/** `node --test …`, or `node <a runner's script> …`. */
function nodeCommand(args: readonly string[]): string | undefined {
  if (args.includes('--test')) return undefined;
  const script = args.find((arg) => !arg.startsWith('-'));
  const parts = script?.split(/[/\\]/) ?? [];
  if (parts.some((part) => RUNNERS.has(part.replace(/\.(c|m)?js$/, '')))) return undefined;
  // cucumber-js's file is @cucumber/cucumber/bin/cucumber.js, which no other part names.
  if (parts.slice(-4).join('/') === '@cucumber/cucumber/bin/cucumber.js') return undefined;
  return 'node runs a script that is not a test runner testrun reports for';
}

/** `sh -c '<one command>'`. */
function shellCommand(
  shell: string,
  args: readonly string[],
  cwd: string,
  readScripts: ReadScripts,
  depth: number,
): string | undefined {
  const at = args.indexOf('-c');
  const script = at === -1 ? undefined : args[at + 1];
  if (script === undefined) return `${shell} runs a script file, which may run more than one command`;
  const words = wordsOf(script.trim());
  if (!words) return `${shell} -c runs more than one command`;
  return check(words, cwd, readScripts, depth + 1);
}

/** `npx`-like `pnpm exec`/`dlx`, `npm exec`, and scripts: `npm test`, `pnpm run x`, `yarn x`. */
function packageManagerCommand(
  manager: string,
  args: readonly string[],
  cwd: string,
  readScripts: ReadScripts,
  depth: number,
): string | undefined {
  const words = withoutOptions(args);
  const [verb, ...rest] = words;
  if (verb === undefined) return `${manager} alone runs no tests`;
  if (['exec', 'dlx', 'x'].includes(verb)) return check(withoutOptions(rest), cwd, readScripts, depth + 1);
  const name = ['run', 'run-script', 'rum', 'urn'].includes(verb)
    ? rest[0]
    : verb === 't' || verb === 'tst'
      ? 'test'
      : verb;
  if (name === undefined) return `${manager} ${verb} names no script`;
  const scripts = readScripts(cwd);
  const script = scripts?.[name];
  if (script === undefined) {
    // pnpm and yarn run a dependency's bin by its name when no script has it.
    if (manager !== 'npm' && RUNNERS.has(name)) return undefined;
    return `${manager} ${verb} runs no script of package.json that testrun can read`;
  }
  for (const hook of [`pre${name}`, `post${name}`]) {
    if (scripts?.[hook] !== undefined) return `the script "${name}" has a "${hook}" script beside it`;
  }
  const scriptWords = wordsOf(script.trim());
  if (!scriptWords) return `the script "${name}" runs more than one command`;
  return check(scriptWords, cwd, readScripts, depth + 1);
}

/**
 * A command line's words, quotes and escapes removed (a backslash before a line break joins
 * the lines, as a shell reads it); undefined when a shell would read more than one command in
 * it, a redirection or a substitution.
 */
export function wordsOf(script: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (let at = 0; at < script.length; at++) {
    const character = script[at]!;
    if (quote) {
      if (character === quote) quote = undefined;
      else if (quote === '"' && (character === '$' || character === '`')) return undefined;
      else word += character;
      continue;
    }
    if (character === '\\') {
      const next = script[at + 1];
      at += 1;
      if (next === undefined) return undefined;
      if (next === '\n') continue;
      word += next;
      inWord = true;
    } else if (character === '"' || character === "'") {
      quote = character;
      inWord = true;
    } else if (SHELL_OPERATORS.test(character)) {
      return undefined;
    } else if (/\s/.test(character)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += character;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(word);
  return words;
}

/** Words after a launcher's own options (`npx --yes vitest`, `npm exec -- jest`). */
function withoutOptions(words: readonly string[]): string[] {
  let at = 0;
  while (at < words.length && words[at]!.startsWith('-')) {
    if (words[at] === '--') {
      at += 1;
      break;
    }
    at += 1;
  }
  return words.slice(at);
}

/** The scripts of package.json in `dir`, where it has one that reads. */
function packageScripts(dir: string): Record<string, string> | undefined {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, unknown>;
    };
    const scripts: Record<string, string> = {};
    for (const [name, script] of Object.entries(manifest.scripts ?? {})) {
      if (typeof script === 'string') scripts[name] = script;
    }
    return scripts;
  } catch {
    return undefined;
  }
}
