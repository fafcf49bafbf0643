export const summary = 'send results that a reporter spooled when the service could not be reached';

export const usage = `Usage: testrun replay [options]

Sends the runs and results spooled in .testrun/spool. Not built yet.
`;

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage);
    return 0;
  }
  process.stderr.write('testrun replay: not built yet\n');
  return 2;
}
