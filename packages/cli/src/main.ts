import { commands } from './commands/index.js';

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
  const entry = name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    const problem = name === undefined ? 'no command given' : `unknown command "${name}"`;
    process.stderr.write(`testrun: ${problem}\n\n${usage}`);
    return 2;
  }
  const command = await entry.load();
  return command.run(rest);
}
