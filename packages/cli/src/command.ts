import { parseArgs } from 'node:util';
import { Logger, nearestName, type TestrunOptions } from '@testrun/core';
import { type Flags, flagLabel, HELP_FLAG, optionLines, optionsFrom } from './flags.js';

/** The flags' values as parseArgs gives them; a required flag's is always there. */
type Values<F extends Flags> = {
  [K in keyof ParsedValues<F>]-?: K extends keyof F
    ? F[K] extends { required: true }
      ? string
      : ParsedValues<F>[K]
    : ParsedValues<F>[K];
};
type ParsedValues<F extends Flags> = ReturnType<
  typeof parseArgs<{ options: F; allowPositionals: true }>
>['values'];

/** A mistake in how the command was called: reported with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * The one way a command writes: results to stdout, problems to stderr as
 * `testrun <command>: …`, both with every form of the API key redacted.
 */
export class Output {
  private readonly logger = new Logger();

  constructor(private readonly prefix: string) {
    this.logger.redact(process.env.TESTRUN_API_KEY?.trim());
  }

  /** From now on, `secret` is redacted too (a key given some other way). */
  redact(secret: string | undefined): void {
    this.logger.redact(secret);
  }

  out(text: string): void {
    process.stdout.write(this.logger.clean(text));
  }

  error(message: string): void {
    process.stderr.write(this.logger.clean(`${this.prefix}: ${message}\n`));
  }
}

export interface CommandDefinition<F extends Flags> {
  name: string;
  /** The arguments it takes besides flags, as the usage shows them (`<files or globs…>`); none if unset. */
  positionals?: string;
  /** The usage's prose between its first line and the options: what the command does, an example. */
  about: string;
  flags: F;
  /**
   * Resolves to the exit code; throws UsageError for a bad call. `options` are the reporter
   * options that the flags given set.
   */
  run(input: {
    values: Values<F>;
    options: TestrunOptions;
    positionals: string[];
    output: Output;
  }): Promise<number>;
}

export interface Command {
  name: string;
  positionals: string | undefined;
  flags: Flags;
  /** The full text of `testrun <command> --help`. */
  usage: string;
  /** Runs the command with the arguments after its name; resolves to the exit code. Never rejects. */
  run(argv: string[]): Promise<number>;
}

/** Parses the arguments, answers --help, and turns every error into one redacted line and an exit code. */
export function defineCommand<F extends Flags>(definition: CommandDefinition<F>): Command {
  const { name, positionals } = definition;
  const flags = { ...definition.flags, help: HELP_FLAG };
  const usage = usageOf(definition, flags);
  return {
    name,
    positionals,
    flags: definition.flags,
    usage,
    async run(argv) {
      const output = new Output(`testrun ${name}`);
      try {
        const parsed = parse(argv, flags, positionals !== undefined);
        if (parsed.values.help) {
          output.out(usage);
          return 0;
        }
        const values = parsed.values as Values<F>;
        const options = optionsFrom(definition.flags, values);
        return await definition.run({ values, options, positionals: parsed.positionals, output });
      } catch (error) {
        if (!(error instanceof UsageError)) {
          output.error((error as Error).message);
          return 1;
        }
        output.error(`${error.message}\n\n${usage.trimEnd()}`);
        return 2;
      }
    },
  };
}

/** The usage line, the command's prose, and a line for each flag. */
function usageOf(
  { name, positionals, about }: Pick<CommandDefinition<Flags>, 'name' | 'positionals' | 'about'>,
  flags: Flags,
): string {
  const required = Object.entries(flags).filter(([, flag]) => flag.required);
  const last = positionals?.startsWith('--');
  const line = [
    'testrun',
    name,
    last ? undefined : positionals,
    ...required.map(([name, flag]) => flagLabel(name, flag)),
    '[options]',
    last ? positionals : undefined,
  ];
  return `Usage: ${line.filter(Boolean).join(' ')}

${about.trim()}

Options:
${optionLines(flags)}
`;
}

/** The flags' values as parseArgs reads them; a required flag's is there and not blank. */
function parse(argv: string[], flags: Flags, allowPositionals: boolean) {
  // What parseArgs reads of a flag; it refuses a `short` or `default` that is there but undefined.
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, { type, short, default: value }]) => [
      name,
      { type, ...(short && { short }), ...(value !== undefined && { default: value }) },
    ]),
  );
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(misspeltFlag(error, flags) ?? (error as Error).message);
  }
  if (!parsed.values.help) {
    for (const [name, flag] of Object.entries(flags)) {
      if (flag.required && !String(parsed.values[name] ?? '').trim()) {
        throw new UsageError(`--${name} is required: ${flag.help}`);
      }
    }
  }
  return parsed;
}

/** A flag parseArgs does not know, close to one the command has: the hint reporter options get. */
function misspeltFlag(error: unknown, flags: Flags): string | undefined {
  if ((error as { code?: unknown }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  const given = /'--([^'=]+)'/.exec((error as Error).message)?.[1];
  const hint = given && nearestName(given, Object.keys(flags));
  return hint ? `unknown option "--${given}"; did you mean "--${hint}"?` : undefined;
}
