import { OPTION_SPECS, type OptionSpec, optionFromText, type TestrunOptions } from '@testrun/core';

type OptionName = keyof TestrunOptions;

// A command's flags, each declared once: what parseArgs needs, the help line, and, for a
// flag that sets a reporter option, which one. The usage and the README's synopses are
// written from these declarations; a reporter option's help is its OPTION_SPECS text.

interface FlagBase {
  type: 'string' | 'boolean';
  /** What a string flag's value is, in the usage: `<name>`. */
  value?: string;
  short?: string;
  /** The value when the flag is not given; the help says it. */
  default?: string;
}

/** A flag of the command's own: `help` says what it does. */
interface CommandFlag extends FlagBase {
  help: string;
  /** A string flag that must be given a value; the synopsis shows it outside the brackets. */
  required?: true;
  option?: undefined;
  /** A `--no-…` flag: given, it sets this boolean reporter option to false. */
  negates?: OptionName;
}

/** A flag that sets a reporter option; its help is the option's own, from OPTION_SPECS. */
interface OptionFlag extends FlagBase {
  option: OptionName;
  help?: undefined;
  required?: undefined;
  negates?: undefined;
}

export type Flag = CommandFlag | OptionFlag;
export type Flags = Record<string, Flag>;

/** What every command takes besides its own flags. */
export const HELP_FLAG = { type: 'boolean', short: 'h', help: 'show this help' } as const satisfies Flag;

/** The reporter options the given flags set, a string read as core reads every option written as text. */
export function optionsFrom(flags: Flags, values: Record<string, unknown>): TestrunOptions {
  const options: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(flags)) {
    const value = values[name];
    if (value === undefined) continue;
    if (flag.negates) options[flag.negates] = !value;
    if (!flag.option) continue;
    options[flag.option] = typeof value === 'string' ? optionFromText(flag.option, value) : value;
  }
  return options as TestrunOptions;
}

/** The flag as the usage shows it: `--project <name>`, `-h, --help`. */
export function flagLabel(name: string, flag: Flag): string {
  const value = flag.type === 'string' ? ` ${flag.value ?? `<${name}>`}` : '';
  return `${flag.short ? `-${flag.short}, ` : ''}--${name}${value}`;
}

/** The usage's "Options:" lines: each flag's label, then its help wrapped at `width` columns. */
export function optionLines(flags: Flags, width = 80): string {
  const labels = Object.entries(flags).map(([name, flag]) => [flagLabel(name, flag), helpOf(flag, flags)]);
  const column = 2 + Math.max(...labels.map(([label]) => label!.length)) + 3;
  return labels
    .map(([label, help]) =>
      wrap(help!.split(' '), width - column)
        .map((line, index) => (index === 0 ? `  ${label!.padEnd(column - 2)}` : ' '.repeat(column)) + line)
        .join('\n'),
    )
    .join('\n');
}

/**
 * The command's synopsis with every flag (the README's): its arguments, the required flags
 * as they are, the others in brackets, in the order declared; wrapped at `width`, the lines
 * after the first starting under the arguments.
 */
export function synopsisOf(
  { name, positionals, flags }: { name: string; positionals?: string | undefined; flags: Flags },
  width = 100,
): string {
  const entries = Object.entries(flags);
  // A command after `--` (testrun run) comes after the options, as it is typed.
  const last = positionals?.startsWith('--');
  const words = [
    ...(positionals && !last ? [positionals] : []),
    ...entries.filter(([, flag]) => flag.required).map(([name, flag]) => flagLabel(name, flag)),
    ...entries.filter(([, flag]) => !flag.required).map(([name, flag]) => `[${flagLabel(name, flag)}]`),
    ...(positionals && last ? [positionals] : []),
  ];
  const start = `testrun ${name} `;
  return wrap(words, width - start.length)
    .map((line, index) => (index === 0 ? start : ' '.repeat(start.length)) + line)
    .join('\n');
}

/** What a flag does and its default, in the words of the usage (lower case, no full stop). */
function helpOf(flag: Flag, flags: Flags): string {
  const required = flag.required ? ' (required)' : '';
  if (!flag.option) {
    const fallback = flag.default === undefined ? '' : ` (default: ${flag.default})`;
    return `${flag.help}${required}${fallback}`;
  }
  const spec: OptionSpec = OPTION_SPECS[flag.option];
  const doc = lowerFirst(plain(spec.doc, flags).replace(/\.$/, ''));
  if (flag.type === 'boolean') return `${doc}${required}`;
  const fallback = [spec.env, plain(spec.defaultText, flags)].filter(Boolean).join(', else ');
  return `${doc}${required} (default: ${fallback})`;
}

/**
 * An OPTION_SPECS text (Markdown, for the README's table) as plain text, an option named by
 * this command's flag for it (`clientKey` is `--client-key` here).
 */
function plain(text: string, flags: Flags): string {
  const flagFor = new Map<string, string>();
  for (const [name, flag] of Object.entries(flags)) {
    const option = flag.option ?? flag.negates;
    if (option) flagFor.set(option, `--${name}`);
  }
  return text.replace(/`([^`]*)`/g, (_, code: string) => flagFor.get(code) ?? code);
}

/** "A private CA" as the command's own lines start: "a private CA"; "CA certificates" stays. */
function lowerFirst(text: string): string {
  return /^[A-Z](?![A-Z])/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/** `words` joined in lines of at most `width` characters (a longer word stands alone). */
function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.length - 1;
    if (last >= 0 && `${lines[last]} ${word}`.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}
