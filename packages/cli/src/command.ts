import { type ParseArgsConfig, parseArgs } from 'node:util';
import { Logger } from '@testrun/core';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<
  typeof parseArgs<{ options: O; allowPositionals: true }>
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

export interface CommandDefinition<O extends Options> {
  name: string;
  /** One line for `testrun --help`. */
  summary: string;
  /** The full text of `testrun <command> --help`. */
  usage: string;
  options: O;
  /** Whether the command takes arguments besides its options (file names, say). */
  positionals?: boolean;
  /** Resolves to the exit code; throws UsageError for a bad call. */
  run(input: { values: Values<O>; positionals: string[]; output: Output }): Promise<number>;
}

export interface Command {
  summary: string;
  usage: string;
  /** Runs the command with the arguments after its name; resolves to the exit code. Never rejects. */
  run(argv: string[]): Promise<number>;
}

/** Parses the arguments, answers --help, and turns every error into one redacted line and an exit code. */
export function defineCommand<O extends Options>(definition: CommandDefinition<O>): Command {
  const { name, summary, usage } = definition;
  const options = { ...definition.options, help: { type: 'boolean', short: 'h' } } as O;
  return {
    summary,
    usage,
    async run(argv) {
      const output = new Output(`testrun ${name}`);
      try {
        const { values, positionals } = parse(argv, options, definition.positionals ?? false);
        if ((values as { help?: boolean }).help) {
          output.out(usage);
          return 0;
        }
        return await definition.run({ values, positionals, output });
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

function parse<O extends Options>(argv: string[], options: O, allowPositionals: boolean) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true }) as {
      values: Values<O>;
      positionals: string[];
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
