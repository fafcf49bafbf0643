import { Logger } from '@testrun/core';
import { commands } from './commands/index.js';
import { UsageError } from './usage-error.js';

const usage = `Usage: testrun <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(12)} ${command.summary}`)
  .join('\n')}

Run "testrun <command> --help" for the options of a command.
`;

/** Runs the testrun command line (arguments after `testrun`) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h') {
    process.stdout.write(usage);
    return 0;
  }
  if (name === undefined) return usageFailure('testrun: no command given', usage);
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) return usageFailure(`testrun: unknown command "${name}"`, usage);

  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(`testrun ${name}: ${error.message}`, command.usage);
    // Whatever the error says, it must not carry the key.
    const logger = new Logger();
    logger.redact(process.env.TESTRUN_API_KEY?.trim());
    process.stderr.write(logger.clean(`testrun ${name}: ${(error as Error).message}\n`));
    return 1;
  }
}

function usageFailure(message: string, usageText: string): number {
  process.stderr.write(`${message}\n\n${usageText}`);
  return 2;
}
