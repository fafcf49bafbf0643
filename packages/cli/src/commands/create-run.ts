export const summary = 'create a run and print its id, for CI jobs that report into one run';

export const usage = `Usage: testrun create-run [options]

Creates a run and prints its id, to share through TESTRUN_RUN_ID. Not built yet.
`;

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage);
    return 0;
  }
  process.stderr.write('testrun create-run: not built yet\n');
  return 2;
}
